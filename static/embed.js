// frontdesk booking site embed: include after the iframe on your own page. The booking pages
// report their height, and the frame grows to fit them, so visitors on phones never scroll
// inside a small box. Nothing else is read or sent.
(function () {
  "use strict";
  var script = document.currentScript;
  var origin = new URL(script.src).origin;
  window.addEventListener("message", function (e) {
    if (e.origin !== origin || !e.data || e.data.frontdesk !== "height") return;
    document.querySelectorAll("iframe[data-frontdesk]").forEach(function (frame) {
      if (frame.contentWindow === e.source) frame.style.height = Math.ceil(e.data.height) + "px";
    });
  });
})();
