// Muster's game clock strip (templates/partials/_clock.html): the times tick between the
// server's answers, the strip is refreshed now and then to show the other phone's taps, and a
// tap remembers when it was made (`at`, in the server's time) so that a tap kept in the outbox
// counts from then when it is sent. The server folds the taps and judges each one.
//
// What the strip shows is the newest clock the server sent this page (the strips carry the
// number of taps they hold, so an older one never replaces a newer) with the taps still in the
// outbox folded over it, in order; a tap is made from that, at the moment it is made: who runs
// now decides what a tap on a player's time means. It knows no game. The pages work without it.
(function () {
  "use strict";
  // The page's language (the words script before this one); English if it could not load.
  var tr = window.musterSay || function (text) { return text; };
  var REFRESH = 5000; // how often a visible strip asks for the other phone's taps (ms)
  var TICK = 250;
  var SKEW_KEY = "muster-clock-skew";
  // A tap made here is counted from the moment it is made until the outbox holds it (a few ms).
  var CLICK_HOLD = 3000;
  var server = null; // the newest strip from the server: {el, version, used, running, last, limit, names, base, recent, words, queue}
  var waiting = []; // this clock's taps in the outbox, not refused, in order: {id, action, player, at, seconds}
  var clicked = []; // taps made on this page the outbox did not list yet: {tap, when}
  // Taps that left the outbox as sent (by this page, another tab or the worker) before a strip
  // holding them came: {tap, at}, ``at`` the server's time when they were seen gone.
  var ahead = [];
  var local = null; // what the strip shows: the server's clock with the waiting taps folded in

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

  function queueOf(el) {
    var form = el.querySelector("form[action]");
    return form ? new URL(form.getAttribute("action"), location.href).pathname : null;
  }
  function json(text, fallback) {
    try { return JSON.parse(text || ""); } catch (e) { return fallback; }
  }

  // Read a strip the server rendered. ``fresh``: it came straight from the server just now, so
  // its time also measures this phone's clock against the server's. A strip older than the one
  // already read (fewer taps) shows, but the clock stays the newer one.
  function read(el, fresh) {
    var now = Date.parse(el.dataset.now);
    if (fresh && isFinite(now)) {
      var seen = now - Date.now();
      if (bestSkew === null || seen > bestSkew) bestSkew = seen;
      try { localStorage.setItem(SKEW_KEY, String(bestSkew)); } catch (e) { /* private mode */ }
    }
    var version = Number(el.dataset.version) || 0;
    if (server && server.version > version && server.queue === queueOf(el)) {
      server.el = el;
    } else {
      server = {
        el: el,
        version: version,
        used: json(el.dataset.used, []),
        running: el.dataset.running === "" ? null : Number(el.dataset.running),
        last: el.dataset.last === "" ? null : Number(el.dataset.last),
        limit: el.dataset.limit === "" ? null : Number(el.dataset.limit),
        names: json(el.dataset.names, []),
        // This phone's time at which ``used`` held, in the server's terms.
        base: isFinite(now) ? now : serverNow(),
        recent: (el.dataset.recent || "").split(" ").filter(Boolean),
        words: json(el.dataset.words, {}),
        queue: queueOf(el)
      };
    }
    recompute();
  }

  // --- the clock as shown: the server's, with the taps this phone has not had answered --------
  function held(tap) {
    return server.recent.indexOf(String(tap.id).slice(0, 8)) >= 0;
  }
  function apply(state, tap) {
    var at = Date.parse(tap.at) || serverNow();
    if (tap.action === "limit") {
      state.limit = tap.seconds;
      return;
    }
    if (tap.action === "pass" && state.running === null) return; // the server would refuse it
    if (state.running !== null) state.used[state.running] += Math.max(0, at - state.base) / 1000;
    state.base = Math.max(state.base, at);
    if (tap.action === "start") state.running = tap.player !== null ? tap.player : state.last !== null ? state.last : 0;
    else if (tap.action === "pass") state.running = tap.player !== null ? tap.player : (state.running + 1) % state.used.length;
    else if (tap.action === "pause") state.running = null;
    if (state.running !== null) state.last = state.running;
  }
  function recompute() {
    if (!server) return;
    var now = Date.now();
    clicked = clicked.filter(function (c) {
      return now - c.when < CLICK_HOLD && !held(c.tap) && !waiting.some(function (w) { return w.id === c.tap.id; });
    });
    // A strip made a while after a tap was sent holds it, named among its latest or not.
    ahead = ahead.filter(function (a) { return !held(a.tap) && server.base < a.at + CLICK_HOLD; });
    local = {
      el: server.el,
      used: server.used.slice(),
      running: server.running,
      last: server.last,
      limit: server.limit,
      names: server.names,
      base: server.base
    };
    ahead.map(function (a) { return a.tap; }).concat(waiting, clicked.map(function (c) { return c.tap; })).forEach(function (tap) {
      if (!held(tap)) apply(local, tap);
    });
    reform();
    paint();
  }

  // This clock's taps waiting in the outbox (a tap the server refused is shown refused there).
  function asTap(entry) {
    var data = new URLSearchParams(entry.body);
    var player = data.get("player");
    var minutes = data.get("minutes");
    return {
      id: entry.id,
      action: data.get("action"),
      player: player === null || player === "" ? null : Number(player),
      at: data.get("at"),
      seconds: minutes ? Number(minutes) * 60 : null
    };
  }
  var listing = 0;
  function relist() {
    if (!server || !window.MusterOutbox) return;
    var outbox = window.MusterOutbox;
    var mine = ++listing;
    outbox.list()
      .then(function (entries) {
        var now = entries
          .filter(function (e) { return (e.queue || e.action) === server.queue && e.status !== "refused"; })
          .map(asTap);
        // Taps gone from the outbox: those sent still count until the server's strip holds them.
        var gone = waiting.filter(function (w) { return !now.some(function (n) { return n.id === w.id; }); });
        return Promise.all(gone.map(function (tap) {
          return outbox.wasSent(tap.id).then(function (sent) { return sent ? tap : null; }, function () { return null; });
        })).then(function (sent) {
          if (mine !== listing || !server) return;
          var at = serverNow();
          sent.forEach(function (tap) { if (tap && !held(tap)) ahead.push({ tap: tap, at: at }); });
          waiting = now;
          recompute();
        });
      })
      .catch(function () {});
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
      var text = out.length ? tr("Out of time: %(names)s.", { names: out.join(", ") }) : "";
      if (line.textContent !== text) line.textContent = text;
      line.hidden = !out.length;
    }
  }

  // The strip's buttons as the server would render them for the clock shown. The forms' fields
  // are left alone: a tap is made when it is tapped, from the clock shown then.
  function reform() {
    var el = local.el;
    var running = local.running;
    el.querySelectorAll("[data-clock-player]").forEach(function (form) {
      var p = Number(form.dataset.clockPlayer);
      var button = form.querySelector(".clock-player");
      button.classList.toggle("running", running === p);
      button.setAttribute("aria-pressed", running === p ? "true" : "false");
      var hint = form.querySelector("[data-hint]");
      if (hint) hint.textContent = running === p ? tr("running") : running === null ? tr("start") : "\u00a0";
    });
    el.querySelectorAll("[data-clock-when]").forEach(function (form) {
      form.hidden = (form.dataset.clockWhen === "running") !== (running !== null);
    });
    var pass = el.querySelector("[data-pass-label]");
    if (pass && running !== null) pass.textContent = tr("Pass to %(name)s", { name: local.names[(running + 1) % local.names.length] });
    var start = el.querySelector("[data-start-label]");
    if (start) start.textContent = tr("Start: %(name)s", { name: local.names[local.last !== null ? local.last : 0] });
    // Until it first starts the clock is one line: its Start button and its limit.
    el.classList.toggle("clock-idle", running === null && local.last === null);
    var how = el.querySelector("[data-clock-how]");
    if (how) how.hidden = running === null;
    var idle = el.querySelector("[data-not-started]");
    if (idle) idle.hidden = running !== null || local.last !== null;
  }

  // --- a tap: what it does, from the clock shown now, and when it was made ------------------------
  // ``form``: one of the strip's forms. Its kind is the action the server rendered in it; a
  // player's own time passes the clock on, another's gives it to them, and starts a stopped one.
  function tapFor(form) {
    var n = local.used.length;
    var running = local.running;
    var kind = form.elements.action ? form.elements.action.defaultValue : "";
    if (form.dataset.clockPlayer !== undefined) {
      var p = Number(form.dataset.clockPlayer);
      if (running === p) return { action: "pass", player: null, to: (p + 1) % n };
      if (running !== null) return { action: "pass", player: p, to: p };
      return { action: "start", player: p, to: p };
    }
    if (kind === "start") return running === null ? { action: "start", player: null, to: local.last !== null ? local.last : 0 } : null;
    if (kind === "pass") return running !== null ? { action: "pass", player: null, to: (running + 1) % n } : null;
    if (kind === "pause") return running !== null ? { action: "pause", player: null } : null;
    if (kind === "limit") return { action: "limit", player: null };
    return null;
  }
  function words(tap) {
    var said = server.words || {};
    if (tap.action === "pause") return said.pause;
    var list = said[tap.action];
    return Array.isArray(list) && tap.to !== undefined ? list[tap.to] : null;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("#clock button[type=submit]") : null;
    var form = button && button.form;
    if (!form || !local || !document.body.contains(local.el) || !local.el.contains(form)) return;
    if (!form.checkValidity()) return; // the browser says what is missing; nothing is sent
    var tap = tapFor(form);
    if (!tap) {
      // A button the clock has moved past (it shows in a moment): nothing to send.
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    var id = window.MusterOutbox ? window.MusterOutbox.uuid() : form.elements.id.value;
    var at = new Date(serverNow()).toISOString();
    form.elements.id.value = id;
    if (form.elements.at) form.elements.at.value = at;
    form.elements.action.value = tap.action;
    if (form.elements.player) form.elements.player.value = tap.player === null ? "" : String(tap.player);
    var said = words(tap);
    if (said) form.dataset.entry = said;
    var minutes = form.elements.minutes ? form.elements.minutes.value : "";
    clicked.push({ when: Date.now(), tap: { id: id, action: tap.action, player: tap.player, at: at, seconds: minutes ? Number(minutes) * 60 : null } });
    // Shown at once; the fields of the form being sent stay as they are.
    setTimeout(recompute, 0);
  }, true);

  // The outbox took a tap (or gave one back): fold what waits now.
  document.addEventListener("muster:outbox", function (event) {
    var added = event.detail && event.detail.added;
    if (added && server && (added.queue || added.action) === server.queue && added.status !== "refused") {
      if (!waiting.some(function (w) { return w.id === added.id; })) waiting.push(asTap(added));
      recompute();
      return;
    }
    relist();
  });

  // --- the other phone's taps ---------------------------------------------------------------------
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
    fetch(el.dataset.url, { credentials: "same-origin", headers: { "HX-Request": "true", Accept: "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        var now = strip();
        if (!html || !now || now.querySelector("details[open]")) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("clock");
        // A strip older than the one shown (a tap's answer came first) changes nothing.
        if (!fresh || (Number(fresh.dataset.version) || 0) < (Number(now.dataset.version) || 0)) return;
        if (server && (Number(fresh.dataset.version) || 0) < server.version) return;
        var node = document.importNode(fresh, true);
        now.replaceWith(node);
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
    relist();
    setInterval(paint, TICK);
    setInterval(function () { refresh(true); }, REFRESH);
  });
  // The server's new strip: a tap's answer (htmx), or one the offline layer put in place.
  function swapped() {
    var el = strip();
    if (el && (!server || server.el !== el)) read(el, true);
  }
  document.addEventListener("htmx:after:swap", swapped);
  document.addEventListener("muster:swapped", swapped);
  document.addEventListener("muster:enhance", function () { refresh(false); });
  document.addEventListener("visibilitychange", function () { refresh(false); });
})();
