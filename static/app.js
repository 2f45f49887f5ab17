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

  // Dragging a booking block of the day or week view onto another time or provider: the drop
  // asks the server (GET /bookings/{id}/move/check, the move form's check) and shows its
  // answer in #drag-outcome — a confirm button, which is the move form's POST, or why the
  // booking cannot go there. Nothing changes before the confirm. Keyboard users have the move
  // form.
  var dragged = null;
  document.addEventListener("dragstart", function (e) {
    var block = e.target.closest && e.target.closest("a.day-booking[data-booking], a.cal-booking[data-id]");
    if (!block) return;
    dragged = block.dataset.booking || block.dataset.id;
    if (e.dataTransfer) {
      e.dataTransfer.effectAllowed = "move";
      e.dataTransfer.setData("text/plain", dragged);
    }
  });
  document.addEventListener("dragover", function (e) {
    if (dragged && e.target.closest && e.target.closest("td[data-at], td[data-date]")) e.preventDefault();
  });
  document.addEventListener("drop", function (e) {
    // A cell of the day view is an instant; a cell of the week view a day, at the same time.
    var cell = dragged && e.target.closest && e.target.closest("td[data-at], td[data-date]");
    var out = document.getElementById("drag-outcome");
    if (!cell || !out) return;
    e.preventDefault();
    var id = dragged;
    dragged = null;
    var query = cell.dataset.at ?
      "choice=" + encodeURIComponent(cell.dataset.provider + ":" + cell.dataset.at) :
      "provider=" + encodeURIComponent(cell.dataset.provider) + "&date=" + encodeURIComponent(cell.dataset.date);
    fetch("/bookings/" + encodeURIComponent(id) + "/move/check?" + query, { credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        out.innerHTML = html;
        out.hidden = false;
        out.scrollIntoView({ block: "nearest" });
        var first = out.querySelector("button");
        if (first) first.focus();
      });
  });
  document.addEventListener("dragend", function () { dragged = null; });
  document.addEventListener("click", function (e) {
    if (!e.target.closest || !e.target.closest("[data-drag-dismiss]")) return;
    var out = document.getElementById("drag-outcome");
    if (out) { out.hidden = true; out.innerHTML = ""; }
  });

  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:load", function (e) { enhance(e.target); });
})();
