// Terrain: drag a placed piece on the map to move it. The map's y axis runs up from the
// first player's edge, so screen y is turned back into inches from that edge.
(function () {
  "use strict";

  function svgPoint(svg, event) {
    var point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    return point.matrixTransform(svg.getScreenCTM().inverse());
  }

  function wire(root) {
    var wrap = root.querySelector("#terrain-map");
    if (!wrap || wrap.dataset.wired) return;
    wrap.dataset.wired = "1";
    var svg = wrap.querySelector("svg");
    var height = parseFloat(wrap.dataset.boardH);
    var width = parseFloat(wrap.dataset.boardW);
    wrap.querySelectorAll("g.piece[data-piece]").forEach(function (g) {
      var form = document.getElementById("move-" + g.dataset.piece);
      if (!form) return;
      var rect = g.querySelector("rect");
      var label = g.querySelector("text");
      var w = parseFloat(g.dataset.w), h = parseFloat(g.dataset.h);
      var dragging = false;
      g.style.touchAction = "none";
      g.style.cursor = "move";
      g.addEventListener("pointerdown", function (e) {
        dragging = true;
        g.setPointerCapture(e.pointerId);
        e.preventDefault();
      });
      g.addEventListener("pointermove", function (e) {
        if (!dragging) return;
        var p = svgPoint(svg, e);
        var x = Math.min(Math.max(p.x, 0), width), y = Math.min(Math.max(p.y, 0), height);
        rect.setAttribute("x", x - w / 2);
        rect.setAttribute("y", y - h / 2);
        label.setAttribute("x", x);
        label.setAttribute("y", y + 0.5);
        form.querySelector('[name="x"]').value = (Math.round(x * 2) / 2).toString();
        form.querySelector('[name="y"]').value = (Math.round((height - y) * 2) / 2).toString();
      });
      g.addEventListener("pointerup", function () {
        if (!dragging) return;
        dragging = false;
        form.requestSubmit();
      });
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { wire(document); });
  } else {
    wire(document);
  }
  document.addEventListener("htmx:after:swap", function () { wire(document); });
})();
