// frontdesk booking site embed: include after the iframe on your own page. The booking pages
// report the height of their content, and the frame is made exactly that tall — growing and
// shrinking from step to step — so visitors on phones never scroll inside a small box. When a
// new step opens in the frame and its heading is out of sight, the page is scrolled to the top
// of the frame. Nothing else is read or sent.
(function () {
  "use strict";
  var script = document.currentScript;
  var origin = new URL(script.src).origin;
  window.addEventListener("message", function (e) {
    if (e.origin !== origin || !e.data || e.data.frontdesk !== "height") return;
    document.querySelectorAll("iframe[data-frontdesk]").forEach(function (frame) {
      if (frame.contentWindow !== e.source) return;
      // The snippet's min-height is for browsers without this script; here the content decides.
      frame.style.minHeight = "0";
      frame.style.height = Math.ceil(e.data.height) + "px";
      if (!e.data.page) return;
      // The first page is the one the visitor opened this page with: leave the scroll alone.
      if (frame.dataset.frontdeskStep) {
        var heading = frame.getBoundingClientRect().top + (Number(e.data.heading) || 0);
        if (heading < 0 || heading > window.innerHeight - 48) {
          window.scrollTo(0, window.scrollY + frame.getBoundingClientRect().top);
        }
      }
      frame.dataset.frontdeskStep = "1";
    });
  });
})();
