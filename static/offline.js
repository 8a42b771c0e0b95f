// Muster offline: the service worker, the outbox on the game page, and the status line.
// How it fits together is in docs/offline.md. The pages work without this file.
(function () {
  "use strict";
  var Outbox = window.MusterOutbox;
  var EVENTS = /\/games\/([^/]+)\/(?:events|clock)$/; // a game's entries and its clock taps
  var SYNC_TAG = "muster-outbox";
  var waitingTotal = 0;
  var pristineMaps = new WeakMap();
  // The step form each #game came with from the server, before a waiting entry moved #step on.
  var pristineSteps = new WeakMap();
  // The held entry being edited, and its editor: kept across re-renders of the outbox.
  var editing = { id: null, box: null };
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
  function words(text) { return text ? text.split(" ").filter(Boolean) : []; }
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
  // So is a page htmx moved to (a boosted link, or the new-game form whose answer is a
  // redirect the worker never sees): kept as soon as it shows, not at the first entry.
  var keptUrl = null;
  function keepThisPage() {
    if (!window.caches || !("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return;
    keptUrl = pageUrl();
    caches.match(location.href, { cacheName: Outbox.PAGES }).then(function (found) {
      return found ? null : refreshStoredPage();
    }).then(function () {
      var game = document.getElementById("game"); // read now: a swap may have landed meanwhile
      markStored(game ? game.dataset.step : null);
    });
  }
  function keepMovedPage() {
    if (pageUrl() !== keptUrl) keepThisPage();
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
  // The server marks the form that takes back the last entry.
  function isUndo(form) { return form.hasAttribute("data-undo"); }

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

  // What the server's step data says about a submitted form (docs/offline.md): its step, the
  // steps its choice leads to, the block in play once it waits, the part of its step it is.
  function stepOf(form, data) {
    var d = form.dataset;
    var found = { step: d.step || null };
    if (!d.step) return found;
    if (d.inPlay !== undefined) found.inPlay = d.inPlay;
    if (d.parts !== undefined) {
      found.parts = words(d.parts);
      found.part = d.part;
    }
    if (d.choice) {
      var plans = {};
      try { plans = JSON.parse(d.plans || "{}"); } catch (e) { plans = {}; }
      var value = data.get(d.choice);
      found.plan = value !== null && Array.isArray(plans[value]) ? plans[value] : [];
    }
    return found;
  }

  // The once-only choices a form takes: its own mark, each ticked box marked so, and for a
  // select marked so, its mark followed by the value chosen (empty: nothing chosen).
  function takenBy(form) {
    var keys = form.dataset.once ? [form.dataset.once] : [];
    form.querySelectorAll("[data-once]").forEach(function (node) {
      if (node.disabled) return;
      if (node.tagName === "SELECT") {
        if (node.value) keys.push(node.dataset.once + node.value);
      } else if (node.checked) {
        keys.push(node.dataset.once);
      }
    });
    return keys;
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
          var entry = stepOf(form, data);
          entry.id = id;
          entry.game = game;
          entry.action = new URL(form.getAttribute("action"), location.href).pathname;
          entry.body = data.toString();
          entry.title = titleOf(form);
          entry.lines = describe(form, submitter);
          entry.once = takenBy(form);
          return Outbox.add(entry);
        });
      })
      .then(function (entry) {
        if (!entry) return;
        waitingTotal += 1;
        requestBackgroundSync();
        document.dispatchEvent(new CustomEvent("muster:queued", { detail: { form: form, entry: entry } }));
        return Outbox.list(game).then(function (entries) {
          // Behind a refused entry (or one still to check) it waits for the player, not the network.
          var refused = entries.some(function (e) { return e.status === "refused"; });
          var review = entries.some(function (e) { return e.review; });
          var why = ". It will be sent when Muster can be reached.";
          if (refused) why = ". It is held behind the entry Muster refused: see Not recorded in the game.";
          else if (review) why = ". It waits behind the entries to check first, in the game.";
          say("sync", "Kept on this phone: " + entry.title + why);
          return render(true);
        }).then(function () {
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
      if (form.dataset.editOf) {
        // The editor of a held entry: its new values replace the entry's, nothing is posted.
        event.preventDefault();
        event.stopPropagation();
        saveEdit(form, event.submitter);
        return;
      }
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
  // htmx's own timeout for a request (base.html): a replayed entry waits no longer.
  function timeout() {
    var config = window.htmx && htmx.config;
    return (config && config.defaultTimeout) || 15000;
  }
  function seconds() { return Math.ceil(timeout() / 1000) + " s"; }

  function flushNow() {
    if (flushing) {
      say("sending", "Already sending to Muster: an entry waits up to " + seconds() + " for its answer.");
      return flushing;
    }
    // Its own line, gone when the replay ends: news of what was sent (the worker's too) stays.
    if (waitingTotal) say("sending", "Sending what waits on this phone to Muster…");
    flushing = Outbox.flush({ csrf: csrf(), timeout: timeout() })
      .then(function (result) {
        if (!result.expired) return result;
        // The page's form token has expired: ask the server for a fresh one and try again.
        return fetch("/offline", { credentials: "same-origin", headers: { Accept: "text/html" }, cache: "no-store" })
          .then(function (r) { return r.text(); })
          .then(function (html) {
            var match = /name="csrf-token" content="([^"]+)"/.exec(html);
            return match ? Outbox.flush({ csrf: match[1], timeout: timeout() }) : result;
          })
          .catch(function () { return result; });
      })
      .then(function (result) {
        var games = result.sent.concat(result.refused).map(function (e) { return e.game; });
        if (result.timedOut) say("sync", "Muster did not answer within " + seconds() + ". What you recorded stays on this phone and is sent again.");
        else if (result.unreachable && !games.length) say("sync", "Muster could not be reached. What you recorded stays on this phone.");
        return afterFlush({ games: games, sent: result.sent.length, refused: result.refused.length, html: result.html });
      })
      .catch(function () {})
      .then(function () {
        flushing = null;
        unsay("sending");
      });
    return flushing;
  }

  function afterFlush(outcome) {
    if (outcome.sent) say("sync", outcome.sent + (outcome.sent === 1 ? " entry" : " entries") + " sent to Muster.");
    if (outcome.refused) say("sync", "Muster refused " + (outcome.refused === 1 ? "an entry" : outcome.refused + " entries") + " recorded on this phone: see the game.");
    var game = document.getElementById("game");
    if (!game || !outcome.games || outcome.games.indexOf(game.dataset.game) < 0) return render(false);
    // The server's answer to the last entry sent is its new #game: show it at once, with no
    // second request that could come back late (a replay from the worker has none: ask).
    var html = outcome.html && outcome.html[game.dataset.game];
    var fresh = html ? new DOMParser().parseFromString(html, "text/html").getElementById("game") : null;
    if (!fresh) return refreshGame(game);
    storeGame(html);
    return mergeGame(game, fresh);
  }

  // Ask the server for the game and show what it holds. The page comes whole (the worker keeps
  // it for offline use); if an htmx answer replaced the game while it was on its way, that
  // answer is newer and stays.
  function refreshGame(before) {
    return fetch(pageUrl(), { credentials: "same-origin", headers: { Accept: "text/html", "X-Muster-Refresh": "1" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        var game = document.getElementById("game");
        var fresh = html ? new DOMParser().parseFromString(html, "text/html").getElementById("game") : null;
        if (!fresh || game !== before) return render(false);
        return mergeGame(game, fresh).then(function () {
          if ("serviceWorker" in navigator && navigator.serviceWorker.controller) markStored(fresh.dataset.step);
        });
      })
      .catch(function () { return render(false); });
  }

  // Put the server's #game in place of the shown one: totals, history and step data update.
  // A step the player has touched is never replaced (the state is checked when the answer is
  // applied, however late it comes): it moves into the new #game if the server still expects
  // that step; if not (the other phone recorded it), the next step shows and a notice keeps
  // what the player had entered, in a sentence and their values.
  function mergeGame(old, fresh) {
    return Outbox.list(old.dataset.game)
      .catch(function () { return []; })
      .then(function (entries) {
        if (document.getElementById("game") !== old) return render(false); // replaced meanwhile
        // Read what the player touched only now: a tap while the outbox was being read counts.
        var touched = old.querySelector("#step");
        if (!touched || touched.dataset.dirty !== "1") touched = null;
        var shown = touched ? touched.dataset.shown || shownKey(fold(old, [])) : "";
        // An answer older than the game shown (an htmx answer landed first) changes nothing.
        if (Number(fresh.dataset.version) < Number(old.dataset.version)) return render(false);
        var waiting = entries.filter(function (e) { return e.status !== "refused"; });
        var game = document.importNode(fresh, true);
        var slot = game.querySelector("#step");
        keepPristineStep(game, slot);
        if (touched) {
          var m = fold(game, waiting);
          if (slot && m.key && m.key === shown.split(":")[0]) {
            touched.dataset.shown = shownKey(m);
            slot.replaceWith(touched);
          } else {
            var notice = keptValues(touched);
            if (slot) slot.before(notice);
            else game.append(notice);
          }
        }
        old.replaceWith(game);
        if (window.htmx) htmx.process(game);
        document.dispatchEvent(new Event("muster:enhance"));
        return render(false);
      });
  }

  // What the player had entered in a step the server no longer expects, left on the screen.
  function keptValues(step) {
    var box = el("div", { class: "notice", id: "step-kept", role: "status" });
    var forms = step.querySelectorAll("form");
    var title = forms.length ? titleOf(forms[0]) : "this step";
    box.append(el("p", {}, "Muster already holds " + title + " (recorded on another phone), so this phone did not send what you had entered there:"));
    Array.prototype.forEach.call(forms, function (form) { box.append(values(describe(form))); });
    return box;
  }

  // --- the game page: waiting entries, the sync note and the next step -------------------
  // Follow the server's step data over the waiting entries, in order: #game holds the plan (the
  // step the server expects, then those after it as far as the next choice) and the block in
  // play; each entry carries what its form said: the plan its choice chose, the block in play
  // once it waits, the part of a step that several forms complete, the once-only choices taken.
  function fold(game, waiting) {
    var plan = words(game.dataset.plan);
    var inPlay = game.dataset.inPlay || "";
    var done = [];
    var taken = [];
    waiting.forEach(function (e) {
      (e.once || []).forEach(function (key) { taken.push(key); });
      if (!e.step) return; // not a step (a roll, say): the plan stands
      if (e.inPlay !== undefined) inPlay = e.inPlay;
      if (e.parts) {
        if (done.indexOf(e.part) < 0) done.push(e.part);
        if (!e.parts.every(function (part) { return done.indexOf(part) >= 0; })) return;
      }
      done = [];
      plan = e.plan ? e.plan.slice() : plan.slice(1);
    });
    return { key: plan[0] || null, inPlay: inPlay, done: done, taken: taken };
  }
  function shownKey(m) { return (m.key || "") + (m.done.length ? ":" + m.done.join(",") : ""); }

  // The value a field marked data-carry was last given by a waiting entry, if any.
  function carried(name, waiting) {
    for (var i = waiting.length - 1; i >= 0; i--) {
      var p = params(waiting[i]);
      if (p.has(name)) return p.get(name);
    }
    return null;
  }

  function prepareStep(content, m, waiting, game) {
    content.querySelectorAll('input[name="id"]').forEach(function (input) { input.value = Outbox.uuid(); });
    content.querySelectorAll("[data-carry]").forEach(function (field) {
      var value = carried(field.name, waiting);
      if (value !== null) field.value = value;
    });
    content.querySelectorAll("form[data-part]").forEach(function (form) {
      if (m.done.indexOf(form.dataset.part) >= 0) form.remove();
    });
    var slot = content.querySelector("[data-map-slot]");
    var map = pristineMaps.get(game);
    if (slot && map) {
      slot.append(map.cloneNode(true));
      // The map is the server's drawing: what the waiting entries changed is not on it.
      if (waiting.length) slot.append(el("p", { class: "hint map-as-of" }, "Map as of the last sync: what waits on this phone is not drawn on it."));
    }
    withdraw(content, m.taken);
  }

  // A once-only choice a waiting entry took is offered no more: a select's option goes, a box
  // is hidden and cleared, a form is hidden; given back if that entry is removed.
  function withdraw(root, taken) {
    var inEditor = !!(root.closest && root.closest(".entry-edit"));
    root.querySelectorAll("[data-once]").forEach(function (node) {
      // A held entry's editor offers what that entry took: the game's withdrawals leave it be.
      if (!inEditor && node.closest(".entry-edit")) return;
      var gone = taken.indexOf(node.dataset.once) >= 0;
      if (node.tagName === "SELECT") {
        Array.prototype.slice.call(node.options).forEach(function (option) {
          if (option.value && taken.indexOf(node.dataset.once + option.value) >= 0) option.remove();
        });
      } else if (node.tagName === "FORM") {
        node.hidden = gone;
      } else {
        // A box marked data-once-box goes with it, its other fields too (not sent while hidden).
        var box = node.closest("[data-once-box]") || node.closest("label") || node;
        box.hidden = gone;
        box.querySelectorAll("input, select, textarea").forEach(function (field) {
          if (gone && !field.disabled) field.dataset.withdrawn = "1";
          if (field.dataset.withdrawn) field.disabled = gone;
          if (!gone) delete field.dataset.withdrawn;
        });
        if (node === box) node.disabled = gone;
        if (gone) node.checked = false;
      }
    });
  }

  // Cards of blocks (data-blocks) show the block the step data puts in play, or none.
  function renderBlocks(game, m) {
    game.querySelectorAll("[data-blocks]").forEach(function (card) {
      var shown = false;
      card.querySelectorAll("[data-block]").forEach(function (block) {
        block.hidden = block.dataset.block !== m.inPlay;
        if (!block.hidden) shown = true;
      });
      card.hidden = !shown;
    });
    withdraw(game, m.taken);
  }

  function renderStep(game, waiting, moved) {
    var step = game.querySelector("#step");
    if (!step) return;
    // Only the player's own entry or undo moves a step they have touched; entries leaving the
    // outbox (sent, refused, removed) leave it as it is: the server's answer decides (mergeGame).
    if (!moved && step.dataset.dirty === "1") return;
    var m = fold(game, waiting);
    var key = shownKey(m);
    var current = step.dataset.shown || shownKey(fold(game, []));
    if (key === current) return;
    var template = m.key ? game.querySelector('template[data-step="' + CSS.escape(m.key) + '"]') : null;
    var content;
    if (template) {
      content = template.content.cloneNode(true);
      prepareStep(content, m, waiting, game);
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
    if (!entries.length) {
      note.hidden = true;
      return;
    }
    var parts = ["Totals as of the last sync"];
    if (waiting) parts.push(waiting + " waiting");
    if (refused) parts.push(refused + " not recorded");
    note.textContent = parts.join(" · ");
    note.hidden = false;
  }

  function values(lines) {
    return el.apply(null, ["ul", { class: "values" }].concat((lines || []).map(function (line) { return el("li", {}, line); })));
  }

  // Both versions of a refused entry, the phone's and the server's, as the server renders them
  // with one partial (GET /games/<id>/held): the same lines in the same words on both sides.
  // Without it (the server could not be asked), the values as the player saw them on the form.
  function versionsView(entry) {
    var theirs = values(["Muster could not be asked; open the game when the connection is back."]);
    if (entry.held) {
      var doc = new DOMParser().parseFromString(entry.held, "text/html");
      doc.querySelectorAll("script, style, link").forEach(function (n) { n.remove(); });
      var found = doc.querySelector(".versions");
      if (found) return document.importNode(found, true);
      // Kept by an older release, which sent the server's version alone.
      theirs = el("div", { class: "held-view" });
      Array.prototype.forEach.call(doc.body.childNodes, function (n) { theirs.append(document.importNode(n, true)); });
    }
    return el(
      "div",
      { class: "versions" },
      el("div", { class: "version mine" }, el("h3", {}, "What you entered"), values(entry.lines)),
      el("div", { class: "version theirs" }, el("h3", {}, "What Muster holds now"), theirs)
    );
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
    var reviewAt = -1;
    entries.forEach(function (e, i) {
      if (refusedAt < 0 && e.status === "refused") refusedAt = i;
      if (reviewAt < 0 && e.review && e.status !== "refused") reviewAt = i;
    });
    var waiting = entries.filter(function (e) { return e.status !== "refused"; }).length;
    var heading = "Waiting to sync (" + waiting + ")";
    var hint = "Kept on this phone and sent in order when Muster can be reached. The totals above are as of the last sync.";
    if (refusedAt >= 0) {
      heading = "Not recorded by Muster";
      hint = "Muster refused an entry made on this phone. Nothing is lost: compare the two versions, then record the step again if it is still needed.";
    } else if (reviewAt >= 0) {
      heading = "Check before sending (" + waiting + ")";
      hint = "These entries were made after the one Muster refused, so they may rest on it. Start with the first one marked Check it: keep it to send it, or discard it and record that step again.";
    }
    box.append(el("h2", { id: "outbox-h" }, heading), el("p", { class: "hint" }, hint));
    var list = el("ol", { class: "pending-list" });
    entries.forEach(function (entry, i) {
      var item = el("li", { class: "pending " + entry.status, "data-entry": entry.id });
      var badge = entry.status === "refused" ? "Not recorded" : refusedAt >= 0 && i > refusedAt ? "Held" : entry.review ? "Check it" : "Waiting";
      item.append(el("div", { class: "entry-head" }, el("span", {}, entry.title), el("span", { class: "badge" }, badge)));
      if (entry.status === "refused") {
        item.append(el("p", { class: "alert" }, "Muster refused it: " + entry.reason));
        item.append(versionsView(entry));
        var dismiss = el("button", { type: "button", class: "secondary wide", "data-dismiss": entry.id }, "Remove it from this phone");
        item.append(dismiss);
      } else {
        item.append(values(entry.lines));
        if (entry.note) item.append(el("p", { class: "hint" }, entry.note));
        var editable = stepFormFor(game, entry) !== null;
        if (badge === "Held") {
          item.append(el("p", { class: "hint" }, "Held back until the refused entry above is removed."));
          if (editable) item.append(el("button", { type: "button", class: "secondary wide", "data-edit": entry.id }, "Edit it"));
          item.append(el("button", { type: "button", class: "secondary wide", "data-dismiss": entry.id }, "Discard it"));
        } else if (badge === "Check it" && i === reviewAt) {
          item.append(el("p", { class: "hint" }, "Check this one first: it is sent only once you keep it."));
          item.append(el("button", { type: "button", class: "primary wide", "data-keep": entry.id }, "Keep it and send it"));
          if (editable) item.append(el("button", { type: "button", class: "secondary wide", "data-edit": entry.id }, "Edit it"));
          item.append(el("button", { type: "button", class: "secondary wide", "data-dismiss": entry.id }, "Discard it"));
        } else if (badge === "Check it") {
          item.append(el("p", { class: "hint" }, "Waits for the entry above to be checked."));
        }
      }
      // An editor open on this entry stays open (and as the player left it) across re-renders.
      if (editing.id === entry.id && editing.box && badge !== "Not recorded") {
        item.querySelectorAll("[data-edit]").forEach(function (b) { b.hidden = true; });
        item.append(editing.box);
      }
      list.append(item);
    });
    if (editing.id && !entries.some(function (e) { return e.id === editing.id; })) editing = { id: null, box: null };
    box.append(list);
    if (waiting && refusedAt < 0 && reviewAt < 0) box.append(el("button", { type: "button", class: "secondary wide", "data-send-now": "1" }, "Try sending now"));
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
        if (!pristineSteps.has(game)) keepPristineStep(game, game.querySelector("#step"));
        if (!pristineMaps.has(game)) {
          var svg = game.querySelector("[data-map-live] svg");
          if (svg) pristineMaps.set(game, svg.cloneNode(true));
        }
        var entries = all.filter(function (e) { return e.game === game.dataset.game; });
        var waiting = entries.filter(function (e) { return e.status !== "refused"; });
        game.dataset.pending = entries.length ? "1" : "0";
        renderNote(game, entries);
        renderOutbox(game, entries);
        askHeldAgain(entries);
        return sentAhead(game, waiting).then(function (ahead) {
          var steps = ahead.concat(waiting);
          renderStep(game, steps, moved);
          renderBlocks(game, fold(game, steps));
        });
      })
      .catch(function () {});
  }

  // A refused entry whose server version could not be fetched when it was refused (the phone
  // had just come back online) asks again, so "Muster could not be asked" does not stay on
  // screen once Muster answers; a failed ask is tried again a few seconds later.
  var askingHeld = {};
  function askHeldAgain(entries) {
    if (!navigator.onLine || !Outbox.serverVersion) return;
    entries.forEach(function (e) {
      if (e.status !== "refused" || e.held || askingHeld[e.id]) return;
      askingHeld[e.id] = true;
      Outbox.serverVersion(e).then(function (html) {
        if (!html) {
          setTimeout(function () { delete askingHeld[e.id]; render(false); }, 3000);
          return null;
        }
        return Outbox.get(e.id).then(function (current) {
          if (!current || current.held || current.status !== "refused") return null;
          current.held = html;
          return Outbox.put(current).then(function () { return render(false); });
        });
      });
    });
  }

  // Entries that reached Muster after the shown #game was made (by this page or the worker):
  // until the server's new #game arrives, the next step still counts them, so the phone never
  // asks again, even for a moment, for an entry the server holds.
  var seenWaiting = new WeakMap();
  var sentBefore = new WeakMap();
  function sentAhead(game, waiting) {
    var before = seenWaiting.get(game) || [];
    seenWaiting.set(game, waiting);
    var gone = before.filter(function (e) {
      return !waiting.some(function (w) { return w.id === e.id; });
    });
    if (!gone.length) return Promise.resolve(sentBefore.get(game) || []);
    return Promise.all(gone.map(function (e) {
      return Outbox.wasSent(e.id).then(function (sent) { return sent ? e : null; }, function () { return null; });
    })).then(function (sent) {
      var ahead = (sentBefore.get(game) || []).concat(sent.filter(Boolean));
      sentBefore.set(game, ahead);
      return ahead;
    });
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("[data-dismiss], [data-send-now], [data-keep], [data-edit], [data-edit-cancel]") : null;
    if (!target) return;
    if (target.dataset.sendNow) {
      flushNow();
      return;
    }
    if (target.dataset.edit) {
      openEditor(target.dataset.edit);
      return;
    }
    if (target.hasAttribute("data-edit-cancel")) {
      editing = { id: null, box: null };
      render(false);
      return;
    }
    var done = target.dataset.keep ? keepReviewed(target.dataset.keep) : dismiss(target.dataset.dismiss);
    done.then(function () {
      return render(false);
    }).then(function () {
      if (navigator.onLine) flushNow();
    });
  });

  // --- editing a held entry ------------------------------------------------------------------
  function keepPristineStep(game, step) {
    if (game && step && !step.dataset.shown) pristineSteps.set(game, step.cloneNode(true));
  }

  // The form of an entry's step, as the server rendered it: a step rendered ahead (<template>),
  // or the step #game came with; for a step several forms complete, the entry's own part.
  function stepFormFor(game, entry) {
    if (!game || !entry.step) return null;
    var roots = [];
    var template = game.querySelector('template[data-step="' + CSS.escape(entry.step) + '"]');
    if (template) roots.push(template.content);
    var pristine = pristineSteps.get(game);
    if (pristine) roots.push(pristine);
    for (var r = 0; r < roots.length; r++) {
      var forms = Array.prototype.filter.call(roots[r].querySelectorAll("form[data-step]"), function (f) {
        return f.dataset.step === entry.step && (entry.part === undefined || f.dataset.part === entry.part);
      });
      if (forms.length) return forms[0];
    }
    return null;
  }

  // Put an entry's values back into its form: fields by name, boxes and choices by value.
  function fill(form, data) {
    Array.prototype.forEach.call(form.elements, function (f) {
      if (!f.name || f.tagName === "BUTTON" || f.tagName === "FIELDSET") return;
      var given = data.getAll(f.name);
      if (f.type === "checkbox" || f.type === "radio") {
        f.checked = given.indexOf(f.value || "on") >= 0;
      } else if (f.tagName === "SELECT") {
        f.value = given.length ? given[0] : "";
        if (f.selectedIndex < 0) f.selectedIndex = 0;
      } else if (given.length) {
        f.value = given[0];
      } else if (f.type !== "hidden") {
        f.value = "";
      }
    });
  }

  // The step's form with the entry's values, in the entry, to change and record again: a held
  // entry stays held with its new values; one to check is sent with them.
  function openEditor(id) {
    var game = document.getElementById("game");
    return Outbox.list(game ? game.dataset.game : undefined).then(function (entries) {
      var entry = entries.filter(function (e) { return e.id === id; })[0];
      var source = entry ? stepFormFor(game, entry) : null;
      if (!source) return;
      var form = source.cloneNode(true);
      // Inert beside the live step: no htmx, no ids twice on the page, no map or widget copies.
      form.querySelectorAll("*").forEach(function (n) {
        Array.prototype.slice.call(n.attributes).forEach(function (a) { if (a.name.indexOf("hx-") === 0) n.removeAttribute(a.name); });
      });
      Array.prototype.slice.call(form.attributes).forEach(function (a) { if (a.name.indexOf("hx-") === 0) form.removeAttribute(a.name); });
      form.querySelectorAll("button.cycle, [data-map-slot], [data-map-live], details.calculator").forEach(function (n) { n.remove(); });
      form.querySelectorAll("[data-upgraded]").forEach(function (n) { delete n.dataset.upgraded; });
      form.querySelectorAll("[id]").forEach(function (n) { n.id = "edit-" + n.id; });
      form.querySelectorAll("label[for]").forEach(function (n) { n.htmlFor = "edit-" + n.htmlFor; });
      form.id = "edit-form";
      form.classList.remove("card");
      form.classList.add("entry-form");
      form.dataset.editOf = entry.id;
      fill(form, params(entry));
      // Once-only choices other waiting entries took are not offered; this entry's own are.
      var others = entries.filter(function (e) { return e.id !== entry.id && e.status !== "refused"; });
      withdraw(form, fold(game, others).taken);
      var held = entries.some(function (e) { return e.status === "refused" && e.seq < entry.seq; });
      form.querySelectorAll('button[type="submit"]:not([name]), button:not([type]):not([name])').forEach(function (b) {
        b.textContent = held ? "Keep the change (still held)" : "Send it with the change";
      });
      var box = el(
        "div",
        { class: "entry-edit" },
        el("p", { class: "hint" }, held
          ? "Change what you need: the entry keeps its place and stays held until the refused entry above is removed."
          : "Change what you need: the entry is then sent with the change."),
        form,
        el("button", { type: "button", class: "secondary wide", "data-edit-cancel": "1" }, "Cancel the change")
      );
      editing = { id: entry.id, box: box };
      return render(false).then(function () {
        document.dispatchEvent(new Event("muster:enhance"));
        var first = form.querySelector("select, input:not([type=hidden]), button");
        box.scrollIntoView({ block: "start" });
        if (first) first.focus({ preventScroll: true });
      });
    });
  }

  function saveEdit(form, submitter) {
    var id = form.dataset.editOf;
    return Outbox.get(id).then(function (entry) {
      if (!entry) return null;
      var data = new URLSearchParams(new FormData(form, submitter || undefined));
      data.set("id", entry.id);
      var found = stepOf(form, data);
      Object.keys(found).forEach(function (k) { entry[k] = found[k]; });
      entry.body = data.toString();
      entry.title = titleOf(form);
      entry.lines = describe(form, submitter);
      entry.once = takenBy(form);
      // Edited after the refusal was in sight: checked, so not asked about again.
      entry.checked = true;
      delete entry.review;
      delete entry.note;
      return Outbox.put(entry).then(function () {
        editing = { id: null, box: null };
        return Outbox.list(entry.game);
      }).then(function (entries) {
        var held = entries.some(function (e) { return e.status === "refused"; });
        say("sync", "Changed on this phone: " + entry.title + (held ? ". It stays held behind the entry Muster refused." : "."));
        return render(false);
      }).then(function () {
        if (navigator.onLine) flushNow();
      });
    });
  }

  // Removing a refused entry does not send the entries held behind it: they were made on the
  // refused version, so each waits for the player to check it (review) and keep or discard it.
  function dismiss(id) {
    return Outbox.get(id).then(function (entry) {
      if (!entry || entry.status !== "refused") return Outbox.remove(id);
      return Outbox.list(entry.game).then(function (entries) {
        var behind = entries.filter(function (e) { return e.seq > entry.seq && e.status !== "refused" && !e.checked; });
        return Promise.all(behind.map(function (e) {
          e.review = true;
          return Outbox.put(e);
        })).then(function () { return Outbox.remove(id); });
      });
    });
  }
  function keepReviewed(id) {
    return Outbox.get(id).then(function (entry) {
      if (!entry) return null;
      delete entry.review;
      return Outbox.put(entry);
    });
  }

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
  document.addEventListener("htmx:after:swap", function () {
    keepMovedPage();
    render(false);
  });
  document.addEventListener("htmx:after:history:push", keepMovedPage);
  document.addEventListener("htmx:after:history:replace", keepMovedPage);
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

  // Follow the other phones at the table: now and then ask how many entries the game holds,
  // and when it grew, show the server's game (a step being filled in stays: mergeGame). A phone
  // with entries of its own waiting gets the server's game when they are sent instead.
  var following = null;
  var followMeta = document.querySelector('meta[name="muster-follow-seconds"]');
  var FOLLOW_MS = Math.max(1, Number(followMeta && followMeta.content) || 5) * 1000;
  function followGame() {
    var game = document.getElementById("game");
    if (!game || !game.dataset.game || !game.dataset.version || following || flushing || waitingTotal) return;
    if (!navigator.onLine || document.visibilityState !== "visible") return;
    following = fetch("/games/" + encodeURIComponent(game.dataset.game) + "/version", { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (answer) {
        if (!answer || document.getElementById("game") !== game) return;
        if (answer.version > Number(game.dataset.version)) return refreshGame(game);
      })
      .catch(function () {})
      .then(function () { following = null; });
  }
  setInterval(followGame, FOLLOW_MS);
  document.addEventListener("visibilitychange", followGame);

  window.MusterOffline = { flush: flushNow, render: render, fold: fold };
})();
