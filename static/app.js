// frontdesk admin: small progressive enhancements. Everything works without this file.
(function () {
  "use strict";

  // Copy buttons: <button data-copy="#id">. Hidden until this script runs, since they need it.
  function enhance(root) {
    root.querySelectorAll("[data-copy]").forEach(function (btn) {
      if (btn.dataset.ready) return;
      btn.dataset.ready = "1";
      btn.hidden = false;
      var label = btn.textContent;
      btn.addEventListener("click", function () {
        var src = document.querySelector(btn.dataset.copy);
        if (!src) return;
        var text = src.textContent.trim();
        // The page gives both words in its language: the label, and data-copied.
        var done = function () { btn.textContent = btn.dataset.copied || label; setTimeout(function () { btn.textContent = label; }, 2000); };
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(text).then(done, function () { select(src); });
        } else {
          select(src);
          try { if (document.execCommand("copy")) done(); } catch (e) { /* the text stays selected */ }
        }
      });
    });
    // Record timestamps are rendered in UTC; show them in the browser's own zone, in the page's
    // language and the business's clock (data-local="12h" or "24h").
    root.querySelectorAll("time[data-local]").forEach(function (t) {
      var d = new Date(t.getAttribute("datetime"));
      var opts = { dateStyle: "medium", timeStyle: "short" };
      if (t.dataset.local) opts.hour12 = t.dataset.local === "12h";
      if (!isNaN(d)) t.textContent = d.toLocaleString(document.documentElement.lang || undefined, opts);
    });
  }

  function select(el) {
    var r = document.createRange();
    r.selectNodeContents(el);
    var s = window.getSelection();
    s.removeAllRanges();
    s.addRange(r);
  }

  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:load", function (e) { enhance(e.target); });
})();
