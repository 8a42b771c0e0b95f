// Muster's game clock strip (templates/partials/_clock.html): the times tick between the
// server's answers, the strip is refreshed now and then to show the other phone's taps, and a
// tap remembers when it was made (`at`, in the server's time) so that a tap kept offline in the
// outbox counts from then when it is replayed. The server folds the taps and judges each one;
// offline, this script only moves the strip along with the taps waiting on the phone so the
// clock keeps running at the table. It knows no game. The pages work without this file.
(function () {
  "use strict";
  var REFRESH = 5000; // how often a visible strip asks for the other phone's taps (ms)
  var TICK = 250;
  var SKEW_KEY = "muster-clock-skew";
  var local = null; // the strip's state as shown: {el, used, running, last, limit, names, base}

  function strip() { return document.getElementById("clock"); }

  // The server's time minus this phone's, as last measured from a fresh answer (ms).
  function kept() {
    try { return localStorage.getItem(SKEW_KEY); } catch (e) { return null; } // storage may be off
  }
  // Each strip from the server gives its time when it was made, read here a moment later: the
  // phone's offset from the server is at least that (the delay only hides some of it), so the
  // largest seen on this page is the best guess. Two taps then measure their interval with one
  // offset, not with two that differ by how slowly each page or answer came.
  var bestSkew = null;
  function skew() {
    if (bestSkew !== null) return bestSkew;
    var value = Number(kept());
    return isFinite(value) ? value : 0;
  }
  function serverNow() { return Date.now() + skew(); }

  // Read the strip the server rendered. ``fresh``: it came straight from the server just now,
  // so its time also measures this phone's clock against the server's.
  function read(el, fresh) {
    var now = Date.parse(el.dataset.now);
    if (fresh && isFinite(now)) {
      var seen = now - Date.now();
      if (bestSkew === null || seen > bestSkew) bestSkew = seen;
      try { localStorage.setItem(SKEW_KEY, String(bestSkew)); } catch (e) { /* private mode */ }
    }
    local = {
      el: el,
      used: JSON.parse(el.dataset.used || "[]"),
      running: el.dataset.running === "" ? null : Number(el.dataset.running),
      last: el.dataset.last === "" ? null : Number(el.dataset.last),
      limit: el.dataset.limit === "" ? null : Number(el.dataset.limit),
      names: JSON.parse(el.dataset.names || "[]"),
      // This phone's time at which ``used`` held, in the server's terms.
      base: isFinite(now) ? now : serverNow()
    };
    paint();
  }

  function face(seconds) {
    var whole = Math.max(0, Math.floor(seconds));
    var h = Math.floor(whole / 3600);
    var m = Math.floor((whole % 3600) / 60);
    var s = whole % 60;
    var ss = (s < 10 ? "0" : "") + s;
    if (h) return h + ":" + (m < 10 ? "0" : "") + m + ":" + ss;
    return m + ":" + ss;
  }

  function usedNow(player) {
    var used = local.used[player] || 0;
    if (player === local.running) used += Math.max(0, serverNow() - local.base) / 1000;
    return used;
  }

  // The faces and the out-of-time line, from the state shown.
  function paint() {
    if (!local || !document.body.contains(local.el)) return;
    var out = [];
    local.el.querySelectorAll("[data-time]").forEach(function (span) {
      var p = Number(span.dataset.time);
      var used = usedNow(p);
      var over = local.limit !== null && used >= local.limit;
      if (over) out.push(local.names[p]);
      span.textContent = local.limit !== null ? face(Math.ceil(local.limit - used)) : face(used);
      var button = span.closest(".clock-player");
      if (button) button.classList.toggle("out", over);
    });
    var line = local.el.querySelector("[data-clock-out]");
    if (line) {
      var text = out.length ? "Out of time: " + out.join(", ") + "." : "";
      if (line.textContent !== text) line.textContent = text;
      line.hidden = !out.length;
    }
  }

  // --- a tap: when it was made, and offline, the strip moves with it ----------------------------
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("#clock button[type=submit]") : null;
    var form = button && button.form;
    if (form && form.elements.at) form.elements.at.value = new Date(serverNow()).toISOString();
  }, true);

  // The outbox kept a tap (offline, or behind entries waiting): show the clock as it would be.
  document.addEventListener("muster:queued", function (event) {
    var form = event.detail && event.detail.form;
    if (!local || !form || !local.el.contains(form)) return;
    var data = new URLSearchParams(event.detail.entry.body);
    var at = Date.parse(data.get("at")) || serverNow();
    var action = data.get("action");
    var player = data.get("player") === null || data.get("player") === "" ? null : Number(data.get("player"));
    if (action === "limit") {
      var minutes = data.get("minutes");
      local.limit = minutes ? Number(minutes) * 60 : null;
    } else {
      if (local.running !== null) local.used[local.running] += Math.max(0, at - local.base) / 1000;
      local.base = at;
      if (action === "start") local.running = player !== null ? player : local.last !== null ? local.last : 0;
      else if (action === "pass") local.running = player !== null ? player : (local.running + 1) % local.used.length;
      else if (action === "pause") local.running = null;
      if (local.running !== null) local.last = local.running;
    }
    reform();
    paint();
  });

  // The strip's forms as the server would render them for the state shown, with fresh ids.
  function reform() {
    var el = local.el;
    var running = local.running;
    el.querySelectorAll("input[name=id]").forEach(function (input) { input.value = window.MusterOutbox.uuid(); });
    el.querySelectorAll("[data-clock-player]").forEach(function (form) {
      var p = Number(form.dataset.clockPlayer);
      form.elements.action.value = running !== null ? "pass" : "start";
      form.elements.player.value = running === p ? "" : String(p);
      var button = form.querySelector(".clock-player");
      button.classList.toggle("running", running === p);
      button.setAttribute("aria-pressed", running === p ? "true" : "false");
      var hint = form.querySelector("[data-hint]");
      if (hint) hint.textContent = running === p ? "tap to pass" : running !== null ? "give the clock" : "start";
    });
    el.querySelectorAll("[data-clock-when]").forEach(function (form) {
      form.hidden = (form.dataset.clockWhen === "running") !== (running !== null);
    });
    var pass = el.querySelector("[data-pass-label]");
    if (pass && running !== null) pass.textContent = "Pass to " + local.names[(running + 1) % local.names.length];
    var start = el.querySelector("[data-start-label]");
    if (start) start.textContent = "Start: " + local.names[local.last !== null ? local.last : 0];
  }

  // --- the other phone's taps ---------------------------------------------------------------------
  // The strip is asked for again while it shows, unless taps of this game wait on this phone
  // (the server does not hold them yet) or the player is typing a limit.
  function waitingTaps(game) {
    if (!window.MusterOutbox) return Promise.resolve(false);
    return window.MusterOutbox.list(game)
      .then(function (entries) { return entries.some(function (e) { return /\/clock$/.test(e.action); }); })
      .catch(function () { return false; });
  }

  var asking = false;
  var quiet = 0;
  // ``timer``: the regular refresh, every 5 s while the clock runs and every 15 s while it is
  // stopped (a start on the other phone shows a little later; a club of phones asks less).
  function refresh(timer) {
    var el = strip();
    if (!el || asking || !navigator.onLine || document.visibilityState !== "visible") return;
    if (timer === true && local && local.running === null && quiet++ % 3) return;
    if (el.querySelector("details[open]") || el.querySelector(".htmx-request")) return;
    asking = true;
    waitingTaps(el.dataset.game)
      .then(function (waiting) {
        if (waiting) return null;
        return fetch(el.dataset.url, { credentials: "same-origin", headers: { "HX-Request": "true", Accept: "text/html" } })
          .then(function (response) { return response.ok ? response.text() : null; });
      })
      .then(function (html) {
        var now = strip();
        if (!html || now !== el || el.querySelector("details[open]")) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("clock");
        if (!fresh) return;
        var node = document.importNode(fresh, true);
        el.replaceWith(node);
        if (window.htmx) htmx.process(node);
        read(node, true);
      })
      .catch(function () {})
      .then(function () { asking = false; });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var el = strip();
    if (!el) return;
    // A page from the phone's cache (offline) holds an old time: only a fresh page measures.
    read(el, !kept());
    setInterval(paint, TICK);
    setInterval(function () { refresh(true); }, REFRESH);
  });
  // The server's new strip after a tap (htmx), or the game after a replay of the outbox.
  document.addEventListener("htmx:after:swap", function () {
    var el = strip();
    if (el && (!local || local.el !== el)) read(el, true);
  });
  document.addEventListener("muster:enhance", function () { refresh(false); });
  document.addEventListener("visibilitychange", function () { refresh(false); });
})();
