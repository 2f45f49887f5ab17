// frontdesk booking site: small progressive enhancements. Every page works without this file.
(function () {
  "use strict";

  // Fold text as the server does for the service search: lower case, no accents.
  function fold(s) {
    return s.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }

  // Filter the services as the visitor types (the form's submit does the same on the server).
  function filter(input) {
    var list = document.querySelector(input.dataset.filter);
    if (!list) return;
    var words = fold(input.value).split(/\s+/).filter(Boolean);
    var shown = 0;
    list.querySelectorAll("[data-group]").forEach(function (group) {
      var inGroup = 0;
      group.querySelectorAll("[data-search]").forEach(function (item) {
        var text = item.dataset.search;
        var ok = words.every(function (w) { return text.indexOf(w) >= 0; });
        item.hidden = !ok;
        if (ok) inGroup++;
      });
      group.hidden = inGroup === 0;
      shown += inGroup;
    });
    var empty = list.querySelector("[data-empty]");
    if (empty) empty.hidden = shown > 0;
  }

  function enhance(root) {
    root.querySelectorAll("input[data-filter]").forEach(function (input) {
      if (input.dataset.ready) return;
      input.dataset.ready = "1";
      input.addEventListener("input", function () { filter(input); });
    });
    root.querySelectorAll("[data-copy]").forEach(function (btn) {
      if (btn.dataset.ready) return;
      btn.dataset.ready = "1";
      btn.hidden = false;
      btn.addEventListener("click", function () {
        var src = document.querySelector(btn.dataset.copy);
        if (src && navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(src.textContent.trim());
      });
    });
    // A form with an error: move focus to its summary so it is read out first.
    var alert = root.querySelector(".form-error[role=alert]");
    if (alert && root === document) {
      alert.setAttribute("tabindex", "-1");
      alert.focus();
    }
  }

  // Embedded in another site's iframe: tell the page around us how tall our content is, so the
  // frame fits it instead of scrolling inside (embed.js listens). The document element's own box
  // is the content's height; its scrollHeight is never less than the frame's, so a frame sized
  // by it could grow but never shrink. `page` marks the first report of a page: a new step, whose
  // heading the page around us brings into view.
  var reported = 0;
  function reportHeight(page) {
    if (window.parent === window) return;
    var h = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (h === reported && !page) return;
    reported = h;
    var title = document.getElementById("page-title");
    var heading = title ? Math.max(0, Math.floor(title.getBoundingClientRect().top + window.scrollY)) : 0;
    window.parent.postMessage({ frontdesk: "height", height: h, page: !!page, heading: heading }, "*");
  }

  document.addEventListener("DOMContentLoaded", function () {
    enhance(document);
    reportHeight(true);
    if (window.ResizeObserver) new ResizeObserver(function () { reportHeight(false); }).observe(document.documentElement);
  });
  document.addEventListener("htmx:load", function (e) { enhance(e.target); });
  // After a day's times replace the picker, put the keyboard and screen reader on them.
  document.addEventListener("htmx:afterSettle", function (e) {
    var h = document.getElementById("times-h");
    if (h && e.target && e.target.id === "picker") h.focus();
    // The address bar followed the day chosen in place; the language links follow it too.
    document.querySelectorAll("a[hreflang]").forEach(function (a) {
      var u = new URL(location.href);
      u.searchParams.set("lang", a.hreflang);
      a.href = u.pathname + u.search;
    });
    reportHeight(false);
  });
})();
