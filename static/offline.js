// Muster offline: the service worker, the outbox on the game page, and the status line.
// How it fits together is in docs/offline.md. The pages work without this file.
(function () {
  "use strict";
  var Outbox = window.MusterOutbox;
  var EVENTS = /\/games\/([^/]+)\/events$/;
  var SYNC_TAG = "muster-outbox";
  var waitingTotal = 0;
  var pristineMaps = new WeakMap();
  var reloading = false;
  var waitingWorker = null;
  var cacheChain = Promise.resolve();
  var flushing = null;

  // --- small DOM helpers ----------------------------------------------------------------
  function el(tag, attrs) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined) continue;
      node.append(child);
    }
    return node;
  }

  function cleanText(node) {
    var copy = node.cloneNode(true);
    copy.querySelectorAll(".hint, .tag, select, input, textarea, button").forEach(function (n) { n.remove(); });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  function params(entry) { return new URLSearchParams(entry.body); }
  function numbers(text) { return text ? text.split(",").filter(Boolean).map(Number) : []; }
  function csrf() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }

  // --- the status line under the top bar: offline, new version, sync ---------------------
  var messages = {};
  var fading = null;
  function say(key, text, action) {
    messages[key] = { text: text, action: action };
    paintStatus();
    // What was just sent or kept is news for a moment; being offline or an update is not.
    if (key === "sync") {
      clearTimeout(fading);
      fading = setTimeout(function () { unsay("sync"); }, 8000);
    }
  }
  function unsay(key) {
    if (messages[key]) {
      delete messages[key];
      paintStatus();
    }
  }
  function paintStatus() {
    var box = document.getElementById("app-status");
    if (!box) return;
    box.replaceChildren();
    Object.keys(messages).forEach(function (key) {
      var m = messages[key];
      var line = el("p", { class: "app-note note-" + key }, m.text);
      if (m.action) {
        var button = el("button", { type: "button", class: "small primary" }, m.action.label);
        button.addEventListener("click", m.action.run);
        line.append(" ", button);
      }
      box.append(line);
    });
  }

  function showNetwork() {
    if (navigator.onLine) unsay("net");
    else say("net", "Offline. What you record is kept on this phone and sent when Muster can be reached.");
  }

  // --- the service worker -----------------------------------------------------------------
  function offerUpdate(worker) {
    waitingWorker = worker;
    say("update", "A new version of Muster is ready.", {
      label: "Reload to update",
      run: function () {
        reloading = true;
        worker.postMessage({ type: "skip-waiting" });
      }
    });
  }

  function pageUrl() { return location.pathname + location.search; }

  // Keep this page's stored copy in step with the server (after each entry it accepts), so
  // an offline reload shows what the server holds. Requests are chained to stay in order.
  function refreshStoredPage() {
    if (!("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return cacheChain;
    cacheChain = cacheChain.then(fetchPage);
    return cacheChain;
  }
  function fetchPage() {
    return fetch(pageUrl(), { credentials: "same-origin", headers: { Accept: "text/html", "X-Muster-Refresh": "1" } })
      .then(function (response) { return response.text(); }) // the worker keeps it; read it to end the request
      .catch(function () {});
  }

  // The server accepted an entry and answered with the new #game: put it into the stored copy
  // of the page at once (no second request, so it holds even if the network drops now).
  function storeGame(fragment) {
    if (!window.caches || !("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return cacheChain;
    var key = location.origin + pageUrl();
    cacheChain = cacheChain
      .then(function () { return caches.open(Outbox.PAGES); })
      .then(function (cache) {
        return cache.match(key).then(function (stored) {
          if (!stored) {
            return fetchPage().then(function () {
              var step = /data-step="([^"]*)"/.exec(fragment);
              if (step) markStored(step[1]);
            });
          }
          return stored.text().then(function (text) {
            var doc = new DOMParser().parseFromString(text, "text/html");
            var fresh = new DOMParser().parseFromString(fragment, "text/html").getElementById("game");
            var old = doc.getElementById("game");
            if (!fresh || !old) return null;
            old.replaceWith(doc.importNode(fresh, true));
            return cache
              .put(key, new Response("<!doctype html>\n" + doc.documentElement.outerHTML, { headers: stored.headers }))
              .then(function () { markStored(fresh.dataset.step); });
          });
        });
      })
      .catch(function () {});
    return cacheChain;
  }

  // A game page says when this phone keeps a copy of it at the step it shows.
  var storedStep = null;
  function markStored(step) {
    storedStep = step;
    var game = document.getElementById("game");
    var note = game && game.querySelector("#offline-ready");
    if (!note || game.dataset.step !== step) return;
    note.textContent = "Kept on this phone: this game can go on offline.";
    note.dataset.step = step;
    note.hidden = false;
  }

  // The first time the worker takes control, this page was loaded before it: store it now.
  function keepThisPage() {
    if (!window.caches || !navigator.serviceWorker.controller) return;
    var game = document.getElementById("game");
    var step = game ? game.dataset.step : null;
    caches.match(location.href, { cacheName: Outbox.PAGES }).then(function (found) {
      if (found) markStored(step);
      else refreshStoredPage().then(function () { markStored(step); });
    });
  }

  function registerWorker() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker
      .register("/sw.js", { scope: "/" })
      .then(function (reg) {
        if (reg.waiting && navigator.serviceWorker.controller) offerUpdate(reg.waiting);
        reg.addEventListener("updatefound", function () {
          var worker = reg.installing;
          if (!worker) return;
          worker.addEventListener("statechange", function () {
            if (worker.state === "installed" && navigator.serviceWorker.controller) offerUpdate(worker);
          });
        });
        document.addEventListener("visibilitychange", function () {
          if (document.visibilityState === "visible") reg.update().catch(function () {});
        });
      })
      .catch(function () {});
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      if (reloading) location.reload();
      else keepThisPage();
    });
    navigator.serviceWorker.addEventListener("message", function (event) {
      var data = event.data || {};
      if (data.type === "outbox") afterFlush({ games: data.games || [], sent: data.sent, refused: data.refused });
    });
    keepThisPage();
  }

  function requestBackgroundSync() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.ready
      .then(function (reg) { return reg.sync ? reg.sync.register(SYNC_TAG) : null; })
      .catch(function () {});
  }

  // --- forms that record an event ---------------------------------------------------------
  function gameOf(form) {
    if (!form || form.tagName !== "FORM") return null;
    var match = EVENTS.exec(new URL(form.getAttribute("action") || "", location.href).pathname);
    return match ? decodeURIComponent(match[1]) : null;
  }
  function isUndo(form) {
    var type = form.querySelector('input[name="type"]');
    return !!type && type.value === "undo";
  }

  function labelOf(form, field) {
    if (field.id) {
      var label = form.querySelector('label[for="' + CSS.escape(field.id) + '"]');
      if (label) return cleanText(label);
    }
    var wrap = field.closest("label");
    if (wrap) return cleanText(wrap);
    return field.getAttribute("aria-label") || field.name;
  }
  function legendOf(form, field) {
    var set = field.closest("fieldset");
    var legend = set && form.contains(set) ? set.querySelector("legend") : null;
    return legend ? cleanText(legend) : "";
  }
  function join(label, value) {
    if (!label) return value;
    return /[?:]$/.test(label) ? label + " " + value : label + ": " + value;
  }

  // The values as the player saw them on the form, one line each.
  function describe(form, submitter) {
    var lines = [];
    if (form.dataset.summary) lines.push(form.dataset.summary);
    if (submitter && submitter.name) {
      var question = form.querySelector("p");
      lines.push(join(question ? cleanText(question) : "", submitter.textContent.trim()));
    }
    Array.prototype.forEach.call(form.elements, function (f) {
      if (!f.name || f.disabled || f.tagName === "BUTTON" || f.tagName === "FIELDSET") return;
      if (["hidden", "submit", "button", "reset"].indexOf(f.type) >= 0) return;
      if (f.type === "radio" || f.type === "checkbox") {
        if (f.checked) lines.push(join(legendOf(form, f), cleanText(f.closest("label") || f)));
      } else if (f.tagName === "SELECT") {
        var option = f.options[f.selectedIndex];
        lines.push(join(labelOf(form, f), option ? option.textContent.trim() : ""));
      } else if (f.value !== "" && !(f.type === "number" && f.value === "0")) {
        lines.push(join(labelOf(form, f), f.value));
      }
    });
    return lines;
  }
  function titleOf(form) {
    if (form.dataset.summary) return "Dice roll";
    var heading = form.querySelector("h2") || (form.closest("section, dialog") || form).querySelector("h2");
    return heading ? cleanText(heading) : "An entry";
  }

  // Keep a submitted form in the outbox, show it as waiting and move on to the next step.
  function enqueue(form, body, submitter) {
    var game = gameOf(form);
    var data = new URLSearchParams(body);
    var id = data.get("id") || Outbox.uuid();
    return Outbox.get(id)
      .then(function (already) {
        if (already) return null; // the same submission twice: it is kept once
        return Outbox.wasSent(id).then(function (sent) {
          // A page older than what this phone already sent reuses an id: make a new one.
          if (sent) id = Outbox.uuid();
          data.set("id", id);
          return Outbox.add({
            id: id,
            game: game,
            action: new URL(form.getAttribute("action"), location.href).pathname,
            body: data.toString(),
            type: data.get("type"),
            title: titleOf(form),
            lines: describe(form, submitter)
          });
        });
      })
      .then(function (entry) {
        if (!entry) return;
        waitingTotal += 1;
        requestBackgroundSync();
        document.dispatchEvent(new CustomEvent("muster:queued", { detail: { form: form, entry: entry } }));
        say("sync", "Kept on this phone: " + entry.title + ". It will be sent when Muster can be reached.");
        return render(true).then(function () {
          if (navigator.onLine) flushNow();
        });
      });
  }

  // Offline, or behind entries still waiting, a form goes to the outbox instead of the server.
  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      var game = gameOf(form);
      if (!game) return;
      var game$ = document.getElementById("game");
      var behind = game$ && game$.dataset.game === game && game$.dataset.pending === "1";
      if (navigator.onLine && !behind) return; // htmx sends it; if that fails, htmx:error keeps it
      event.preventDefault();
      event.stopPropagation();
      if (isUndo(form)) {
        undoWaiting(game);
        return;
      }
      enqueue(form, new FormData(form, event.submitter || undefined), event.submitter);
    },
    true
  );

  // The request failed without an answer (no network, server down, timeout): keep it.
  document.addEventListener("htmx:error", function (event) {
    var ctx = event.detail && event.detail.ctx;
    var source = event.target;
    var form = source && source.closest ? source.closest("form") : null;
    if (form && gameOf(form) && ctx && ctx.request && ctx.request.body && ctx.request.method === "POST") {
      if (isUndo(form)) {
        say("error", "Muster could not be reached, so nothing was undone. Try again when the connection is back.");
        return;
      }
      enqueue(form, ctx.request.body, ctx.request.submitter);
      return;
    }
    // A tap that needed the server says so; a screen refreshing itself on a timer does not nag.
    var tapped = ctx && ctx.sourceEvent && /^(click|submit|change|input)$/.test(ctx.sourceEvent.type);
    if (tapped) say("error", "This needs Muster, which cannot be reached now. Try again when the connection is back.");
    else if (navigator.onLine) say("error", "Muster could not be reached. Check the connection and try again.");
  });

  document.addEventListener("htmx:after:request", function (event) {
    var ctx = event.detail && event.detail.ctx;
    if (!ctx || !ctx.response) return;
    unsay("error");
    var source = event.target;
    var form = source && source.closest ? source.closest("form") : null;
    var game = gameOf(form);
    if (game && ctx.response.status === 200 && ctx.request.body && ctx.request.body.get) {
      Outbox.markSent(ctx.request.body.get("id"), game);
      if (typeof ctx.text === "string" && ctx.text.indexOf('id="game"') >= 0) storeGame(ctx.text);
      else refreshStoredPage();
    }
  });

  // Moving between screens (a boosted link or form, the back button) asks for the whole page,
  // as a plain browser would: the server's HX-Request fragments are for targeted swaps only.
  document.addEventListener("htmx:config:request", function (event) {
    var headers = event.detail && event.detail.ctx && event.detail.ctx.request && event.detail.ctx.request.headers;
    if (headers && (headers["HX-Boosted"] || headers["HX-History-Restore-Request"])) delete headers["HX-Request"];
  });

  // A boosted link that answers with a PDF or a text file is opened as a download instead.
  document.addEventListener("htmx:before:response", function (event) {
    var ctx = event.detail && event.detail.ctx;
    if (!ctx || !ctx.response || !ctx.request || ctx.request.method !== "GET") return;
    var type = ctx.response.headers.get("Content-Type") || "";
    if (ctx.request.headers["HX-Boosted"] && type && type.indexOf("text/html") !== 0) {
      event.preventDefault();
      location.assign(ctx.response.raw.url || ctx.request.action);
    }
  });

  function undoWaiting(game) {
    return Outbox.list(game).then(function (entries) {
      var waiting = entries.filter(function (e) { return e.status !== "refused"; });
      if (!waiting.length) {
        say("error", "Undo needs Muster: that entry is already recorded there. Try again when the connection is back.");
        return;
      }
      var last = waiting[waiting.length - 1];
      return Outbox.remove(last.id).then(function () {
        say("sync", "Removed from this phone before it was sent: " + last.title + ".");
        return render(true);
      });
    });
  }

  // --- replaying the outbox -----------------------------------------------------------------
  function flushNow() {
    if (flushing) return flushing;
    flushing = Outbox.flush({ csrf: csrf() })
      .then(function (result) {
        if (!result.expired) return result;
        // The page's form token has expired: ask the server for a fresh one and try again.
        return fetch("/offline", { credentials: "same-origin", headers: { Accept: "text/html" }, cache: "no-store" })
          .then(function (r) { return r.text(); })
          .then(function (html) {
            var match = /name="csrf-token" content="([^"]+)"/.exec(html);
            return match ? Outbox.flush({ csrf: match[1] }) : result;
          })
          .catch(function () { return result; });
      })
      .then(function (result) {
        var games = result.sent.concat(result.refused).map(function (e) { return e.game; });
        if (result.unreachable && !games.length) say("sync", "Muster could not be reached. What you recorded stays on this phone.");
        return afterFlush({ games: games, sent: result.sent.length, refused: result.refused.length });
      })
      .catch(function () {})
      .then(function () { flushing = null; });
    return flushing;
  }

  function afterFlush(outcome) {
    if (outcome.sent) say("sync", outcome.sent + (outcome.sent === 1 ? " entry" : " entries") + " sent to Muster.");
    if (outcome.refused) say("sync", "Muster refused " + (outcome.refused === 1 ? "an entry" : outcome.refused + " entries") + " recorded on this phone: see the game.");
    var game = document.getElementById("game");
    if (game && outcome.games && outcome.games.indexOf(game.dataset.game) >= 0) return refreshGame(game);
    return render(false);
  }

  // Show what the server holds now, unless the player is half-way through the next step.
  function refreshGame(game) {
    var step = game.querySelector("#step");
    if (step && step.dataset.dirty === "1") {
      game.dataset.refreshLater = "1";
      return render(false);
    }
    if (!window.htmx) return render(false);
    return Promise.resolve(htmx.ajax("GET", pageUrl(), { target: "#game", select: "#game", swap: "outerHTML" }))
      .then(keepThisPage)
      .catch(function () { return render(false); });
  }

  // --- the game page: waiting entries, the sync note and the next step -------------------
  function fold(game, waiting) {
    var d = game.dataset;
    var m = { key: d.step, round: Number(d.round), players: Number(d.players) || 2 };
    if (d.step === "over") return m;
    if (d.kind === "rounds") {
      waiting.forEach(function (e) {
        var p = params(e);
        if (p.get("type") === "round") m.round = Number(p.get("round")) + 1;
      });
      m.key = m.round > Number(d.lastRound) ? "over" : "phase-" + m.round;
      return m;
    }
    m.started = d.started === "1";
    m.first = d.first === "" || d.first === undefined ? null : Number(d.first);
    m.played = numbers(d.played);
    m.ends = numbers(d.ends);
    waiting.forEach(function (e) {
      var p = params(e);
      var type = p.get("type");
      if (type === "battle_round") {
        m.round = Number(p.get("round"));
        m.started = true;
        m.first = p.get("first") === null ? null : Number(p.get("first"));
        m.played = [];
      } else if (type === "turn") {
        m.played.push(Number(p.get("player")));
        if (m.played.length >= m.players) {
          m.round += 1;
          m.started = false;
          m.first = null;
          m.played = [];
        }
      } else if (type === "end") {
        m.ends.push(Number(p.get("player")));
      }
    });
    if (m.round > Number(d.lastRound)) {
      m.key = m.ends.length >= m.players ? "over" : "end";
    } else if (!m.started) {
      m.key = "round-" + m.round;
    } else {
      var next = m.first;
      if (m.played.length || next === null) {
        for (var i = 0; i < m.players; i++) {
          if (m.played.indexOf(i) < 0) {
            next = i;
            break;
          }
        }
      }
      m.key = "turn-" + m.round + "-" + next;
    }
    return m;
  }
  function shownKey(m) { return m.key === "end" ? "end:" + m.ends.join(",") : m.key; }

  function prepareStep(content, m, waiting, game) {
    content.querySelectorAll('input[name="id"]').forEach(function (input) { input.value = Outbox.uuid(); });
    var turns = waiting.filter(function (e) { return e.type === "turn"; });
    if (m.key.indexOf("turn-") === 0) {
      var last = turns.length ? params(turns[turns.length - 1]) : null;
      if (last) {
        // Objectives stay as the last turn on this phone left them.
        content.querySelectorAll('select[name^="control."]').forEach(function (select) {
          if (last.has(select.name)) select.value = last.get(select.name);
        });
      }
      var player = m.key.split("-")[2];
      turns.forEach(function (e) {
        var p = params(e);
        if (p.get("player") !== player || !p.get("tactic")) return;
        content.querySelectorAll('select[name="tactic"] option[value="' + CSS.escape(p.get("tactic")) + '"]').forEach(function (o) { o.remove(); });
      });
    }
    if (m.key === "end") {
      content.querySelectorAll("form.end-form").forEach(function (form) {
        var who = form.querySelector('input[name="player"]');
        if (who && m.ends.indexOf(Number(who.value)) >= 0) form.remove();
      });
    }
    var slot = content.querySelector("[data-map-slot]");
    var map = pristineMaps.get(game);
    if (slot && map) slot.append(map.cloneNode(true));
    hideClaimed(content, waiting);
  }

  // --- claims: rules scored once per player per battle round (the server marks them) ------
  function claimedOnPhone(waiting, round, player, rule) {
    return waiting.some(function (e) {
      var p = params(e);
      return e.type === "claim" && p.get("round") === String(round) && p.get("player") === String(player) && p.get("rule") === rule;
    });
  }

  // A turn form no longer offers a rule its player has claimed for that round on this phone.
  function hideClaimed(root, waiting) {
    root.querySelectorAll("form").forEach(function (form) {
      var round = form.querySelector('input[type="hidden"][name="round"]');
      var player = form.querySelector('input[type="hidden"][name="player"]');
      if (!round || !player) return;
      form.querySelectorAll("[data-claim-rule]").forEach(function (node) {
        var gone = claimedOnPhone(waiting, round.value, player.value, node.dataset.claimRule);
        node.hidden = gone;
        node.querySelectorAll("input").forEach(function (input) {
          input.disabled = gone;
          if (gone) input.checked = false;
        });
      });
    });
  }

  // The claims card shows the block of the battle round in play as this phone sees it, and
  // hides a claim already waiting, or a waiting turn that carries the rule's flag.
  function renderClaims(game, waiting) {
    var cards = game.querySelectorAll("section[data-claims]");
    if (!cards.length) return;
    var m = fold(game, waiting);
    var inPlay = null;
    if (m.key !== "over" && !(m.ends && m.ends.length)) {
      if (m.started) inPlay = m.round;
      else if (m.round > 1) inPlay = Math.min(m.round - 1, Number(game.dataset.lastRound));
    }
    cards.forEach(function (card) {
      var rule = card.dataset.claims;
      var flag = card.dataset.claimFlag;
      var shown = false;
      card.querySelectorAll("[data-claim-round]").forEach(function (block) {
        var round = Number(block.dataset.claimRound);
        block.hidden = round !== inPlay;
        if (!block.hidden) shown = true;
        block.querySelectorAll("form[data-claim-player]").forEach(function (form) {
          var player = form.dataset.claimPlayer;
          form.hidden = claimedOnPhone(waiting, round, player, rule) || waiting.some(function (e) {
            var p = params(e);
            return e.type === "turn" && flag && p.get(flag) && p.get("round") === String(round) && p.get("player") === player;
          });
        });
      });
      card.hidden = !shown;
    });
    var step = game.querySelector("#step");
    if (step) hideClaimed(step, waiting);
  }

  function renderStep(game, waiting, moved) {
    var step = game.querySelector("#step");
    if (!step) return;
    var m = fold(game, waiting);
    var key = shownKey(m);
    var current = step.dataset.shown || shownKey(fold(game, []));
    if (key === current) return;
    var template = m.key === "over" ? null : game.querySelector('template[data-step="' + m.key + '"]');
    var content;
    if (template) {
      content = template.content.cloneNode(true);
      prepareStep(content, m, waiting, game);
    } else if (m.key === "over") {
      content = el("p", { class: "notice" }, "Every entry of the battle is kept on this phone. The result shows once Muster has them.");
    } else {
      content = el("p", { class: "notice" }, "The next step needs Muster: it shows when the connection is back.");
    }
    step.replaceChildren(content);
    step.dataset.shown = key;
    delete step.dataset.dirty;
    if (window.htmx) htmx.process(step);
    document.dispatchEvent(new Event("muster:enhance"));
    if (moved) step.scrollIntoView({ block: "start" });
  }

  function renderNote(game, entries) {
    var note = game.querySelector("#sync-note");
    if (!note) return;
    var waiting = entries.filter(function (e) { return e.status !== "refused"; }).length;
    var refused = entries.length - waiting;
    if (!entries.length && game.dataset.refreshLater !== "1") {
      note.hidden = true;
      return;
    }
    var parts = ["Totals as of the last sync"];
    if (waiting) parts.push(waiting + " waiting");
    if (refused) parts.push(refused + " not recorded");
    if (!entries.length) parts = ["Sent to Muster; the totals update with your next entry"];
    note.textContent = parts.join(" · ");
    note.hidden = false;
  }

  function values(lines) {
    return el.apply(null, ["ul", { class: "values" }].concat((lines || []).map(function (line) { return el("li", {}, line); })));
  }

  function renderOutbox(game, entries) {
    var box = game.querySelector("#outbox");
    if (!box) return;
    box.replaceChildren();
    if (!entries.length) {
      box.hidden = true;
      return;
    }
    var refusedAt = -1;
    entries.forEach(function (e, i) { if (refusedAt < 0 && e.status === "refused") refusedAt = i; });
    var waiting = entries.filter(function (e) { return e.status !== "refused"; }).length;
    box.append(
      el("h2", { id: "outbox-h" }, refusedAt >= 0 ? "Not recorded by Muster" : "Waiting to sync (" + waiting + ")"),
      el("p", { class: "hint" }, refusedAt >= 0
        ? "Muster refused an entry made on this phone. Nothing is lost: compare the two versions, then record the step again if it is still needed."
        : "Kept on this phone and sent in order when Muster can be reached. The totals above are as of the last sync.")
    );
    var list = el("ol", { class: "pending-list" });
    entries.forEach(function (entry, i) {
      var item = el("li", { class: "pending " + entry.status, "data-entry": entry.id });
      var badge = entry.status === "refused" ? "Not recorded" : refusedAt >= 0 && i > refusedAt ? "Held" : "Waiting";
      item.append(el("div", { class: "entry-head" }, el("span", {}, entry.title), el("span", { class: "badge" }, badge)));
      if (entry.status === "refused") {
        item.append(el("p", { class: "alert" }, "Muster refused it: " + entry.reason));
        item.append(
          el(
            "div",
            { class: "versions" },
            el("div", { class: "version" }, el("h3", {}, "What you entered"), values(entry.lines)),
            el("div", { class: "version" }, el("h3", {}, "What Muster holds now"), values(entry.server || ["Muster could not be asked; open the game when the connection is back."]))
          )
        );
        var dismiss = el("button", { type: "button", class: "secondary wide", "data-dismiss": entry.id }, "Remove it from this phone");
        item.append(dismiss);
      } else {
        item.append(values(entry.lines));
        if (entry.note) item.append(el("p", { class: "hint" }, entry.note));
        if (badge === "Held") {
          item.append(el("p", { class: "hint" }, "Held back until the refused entry above is removed."));
          item.append(el("button", { type: "button", class: "secondary wide", "data-dismiss": entry.id }, "Discard it"));
        }
      }
      list.append(item);
    });
    box.append(list);
    if (waiting && refusedAt < 0) box.append(el("button", { type: "button", class: "secondary wide", "data-send-now": "1" }, "Try sending now"));
    box.hidden = false;
  }

  // The offline page lists the games and rosters this phone keeps, with what waits to be sent.
  function listKeptPages(all) {
    var list = document.querySelector("[data-kept-pages]");
    if (!list || !window.caches) return Promise.resolve();
    return caches
      .open(Outbox.PAGES)
      .then(function (cache) {
        return cache.keys().then(function (requests) {
          var pages = requests.filter(function (r) {
            var path = new URL(r.url).pathname;
            return /^\/(games|rosters)\/[^/]+$/.test(path) && !/\/new$/.test(path);
          });
          return Promise.all(pages.map(function (r) {
            return cache.match(r).then(function (res) { return res.text(); }).then(function (html) {
              var title = /<title>([\s\S]*?)<\/title>/.exec(html);
              var doc = new DOMParser().parseFromString(title ? title[1] : "", "text/html");
              return { url: new URL(r.url).pathname, title: (doc.body.textContent || r.url).replace(/ · Muster$/, "") };
            });
          }));
        });
      })
      .then(function (pages) {
        list.replaceChildren();
        pages.forEach(function (page) {
          var game = page.url.split("/")[2];
          var waiting = all.filter(function (e) { return e.game === game; }).length;
          var link = el("a", { class: "game-link", href: page.url }, el("span", { class: "game-title" }, page.title));
          if (waiting && page.url.indexOf("/games/") === 0) link.append(el("span", { class: "muted" }, waiting + " waiting to sync"));
          list.append(el("li", {}, link));
        });
        var none = document.getElementById("kept-none");
        if (none) none.hidden = pages.length > 0;
      })
      .catch(function () {});
  }

  function render(moved) {
    paintStatus();
    showNetwork();
    var game = document.getElementById("game");
    return Outbox.list()
      .then(function (all) {
        waitingTotal = all.filter(function (e) { return e.status !== "refused"; }).length;
        listKeptPages(all);
        if (!game || !game.dataset.game) return;
        if (storedStep && storedStep === game.dataset.step) markStored(storedStep);
        if (!pristineMaps.has(game)) {
          var svg = game.querySelector("#phase-map svg");
          if (svg) pristineMaps.set(game, svg.cloneNode(true));
        }
        var entries = all.filter(function (e) { return e.game === game.dataset.game; });
        var waiting = entries.filter(function (e) { return e.status !== "refused"; });
        game.dataset.pending = entries.length ? "1" : "0";
        renderNote(game, entries);
        renderOutbox(game, entries);
        renderStep(game, waiting, moved);
        renderClaims(game, waiting);
      })
      .catch(function () {});
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("[data-dismiss], [data-send-now]") : null;
    if (!target) return;
    if (target.dataset.sendNow) {
      flushNow();
      return;
    }
    Outbox.remove(target.dataset.dismiss).then(function () {
      return render(false);
    }).then(function () {
      if (navigator.onLine) flushNow();
    });
  });

  // A step the player has started filling in is not replaced under their fingers.
  function markDirty(event) {
    var step = event.target.closest ? event.target.closest("#step") : null;
    if (step) step.dataset.dirty = "1";
  }
  document.addEventListener("input", markDirty);
  document.addEventListener("change", markDirty);

  window.addEventListener("online", function () {
    showNetwork();
    flushNow();
  });
  window.addEventListener("offline", showNetwork);
  document.addEventListener("htmx:after:swap", function () { render(false); });
  document.addEventListener("DOMContentLoaded", function () {
    registerWorker();
    render(false).then(function () {
      if (waitingTotal && navigator.onLine) flushNow();
    });
  });
  // While entries wait and the network is up, the server may only be down: ask again now and then.
  setInterval(function () {
    if (waitingTotal && navigator.onLine && document.visibilityState === "visible") flushNow();
  }, 20000);

  window.MusterOffline = { flush: flushNow, render: render, fold: fold };
})();
