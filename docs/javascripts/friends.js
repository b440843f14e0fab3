/*
 * The Play page's "play with friends": a table on a cucumber_rules server (cucumber-rules serve).
 *
 * The server that serves this site is the one the page talks to (the same origin): it checks every move
 * with the library and sends each seat only its own view, with the table's picture drawn from that view
 * (cucumber_rules.render), so this script needs no Python of its own. The protocol is on the docs' page
 * "Hosting a table": POST /api/tables creates a table; a WebSocket to /api/play joins it with a link's
 * secret and receives `table`, `view` and `error` messages; `act` messages play.
 *
 * A link is the Play page's address with `#join=<secret>`: opening it (or reloading the page) joins that
 * seat. The secret stays in the fragment, which the browser never sends to a server.
 *
 * The element:  <div id="friends" class="friends"></div>  (filled here; its data-state is "setup",
 * "offline", "connecting", "playing" or "over"; data-at, data-round, data-results and data-trick follow
 * the match: the actions so far, the round, the finished rounds, the cards of the trick on the table).
 *
 * With the theme's instant navigation the page is set up each time the theme's `document$` shows it, and
 * leaving it closes the table's WebSocket, stops reconnecting and drops the page's listeners. The links
 * this script writes (a seat's, "Leave this table") are followed by the browser itself (target="_self"),
 * so that joining or leaving a seat loads the page afresh.
 */
(function () {
  "use strict";

  const JOIN = /^#join=([A-Za-z0-9_-]{20,200})$/;
  const CREATED = "cucumber-rules-friends-links"; // sessionStorage: the links of tables made in this tab

  function element(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value);
    }
    node.append(...children.filter((c) => c !== null && c !== undefined));
    return node;
  }

  function api(path) {
    return new URL(path, window.location.origin).toString();
  }

  function playUrl(secret) {
    const url = new URL(window.location.href);
    url.hash = "join=" + secret;
    return url.toString();
  }

  function savedLinks() {
    try {
      return JSON.parse(window.sessionStorage.getItem(CREATED) || "null");
    } catch (error) {
      return null;
    }
  }

  // --- the links of a new table ----------------------------------------------------------------------

  function linksPanel(answer) {
    const list = element("ul", { class: "friends-links" });
    for (const seat of answer.seats) {
      if (!seat.secret) {
        list.append(element("li", { text: `Seat ${seat.seat}, ${seat.name}: a bot, it plays at once` }));
        continue;
      }
      const url = playUrl(seat.secret);
      list.append(linkItem(`Seat ${seat.seat}, ${seat.name}`, url, seat.seat));
    }
    list.append(linkItem("Spectators", playUrl(answer.spectators.secret), "spectators"));
    return element(
      "div",
      { class: "friends-share" },
      element("p", { text: "Send each friend the link of their seat (keep yours: it is how you come back):" }),
      list,
    );
  }

  function linkItem(label, url, seat) {
    const copy = element("button", {
      type: "button",
      class: "friends-copy",
      style: "margin-left: 0.5em; font-size: 0.7rem",
      text: "Copy",
      onclick: () => navigator.clipboard && navigator.clipboard.writeText(url),
    });
    return element(
      "li",
      { "data-seat": String(seat) },
      element("span", { text: label + ": " }),
      element("a", { href: url, class: "friends-link", target: "_self", text: url }),
      " ",
      copy,
    );
  }

  // --- creating a table -------------------------------------------------------------------------------

  async function setUpForm(root, note) {
    let presets;
    try {
      // The server answers {"server": true, ...}; the docs site on its own has the same file with false.
      const response = await fetch(api("/api/server.json"), { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(String(response.status));
      presets = await response.json();
      if (presets.server !== true) throw new Error("no server");
    } catch (error) {
      root.dataset.state = "offline";
      note.textContent =
        "Playing with friends needs a cucumber_rules server, and this page was not served by one. " +
        "Start one (pip install \".[cli,server]\"; cucumber-rules serve --site site) and open its Play page.";
      root.append(note);
      return;
    }
    const preset = element("select", { name: "preset" });
    for (const p of presets.presets) {
      preset.append(
        element("option", { value: p.name, "data-min": p.min, "data-max": p.max, selected: p.name === "agurk" }, p.title),
      );
    }
    const seats = element("div", { class: "friends-seats" });
    const count = element("input", { name: "players", type: "number", value: "3", min: "2", max: "7", required: true });
    const kinds = ["person", ...presets.bots.filter((bot) => bot !== "person")]; // (a person is no bot)
    const drawSeats = () => {
      const option = preset.selectedOptions[0];
      count.min = option.dataset.min;
      count.max = option.dataset.max;
      const n = Math.max(Number(option.dataset.min), Math.min(Number(option.dataset.max), Number(count.value) || 0));
      count.value = String(n);
      const before = Array.from(seats.querySelectorAll("select")).map((s) => s.value);
      seats.replaceChildren();
      for (let i = 0; i < n; i += 1) {
        const kind = element("select", { name: `seat${i}`, "aria-label": `Seat ${i}` });
        for (const k of kinds) kind.append(element("option", { value: k }, k === "person" ? "a person" : `${k} bot`));
        kind.value = before[i] || (i < 2 ? "person" : kinds[1] || "person");
        seats.append(element("label", {}, `Seat ${i} `, kind));
      }
    };
    preset.addEventListener("change", drawSeats);
    count.addEventListener("change", drawSeats);
    const name = element("input", { name: "name", type: "text", maxlength: "40", placeholder: "Player 1", "aria-label": "Your name" });
    const submit = element("button", { type: "submit", class: "md-button md-button--primary" }, "Create the table");
    const form = element(
      "form",
      { class: "live-play-setup friends-setup" },
      element("label", {}, "Game ", preset),
      element("label", {}, "Players ", count),
      element("label", {}, "Your name (seat 0) ", name),
      seats,
      submit,
    );
    drawSeats();
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      submit.disabled = true;
      note.textContent = "";
      const chosen = Array.from(seats.querySelectorAll("select")).map((s) => s.value);
      const names = chosen.map((kind, i) => (i === 0 && name.value.trim() ? name.value.trim() : kind === "person" ? `Player ${i + 1}` : `${kind} bot ${i}`));
      try {
        const response = await fetch(api("/api/tables"), {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ preset: preset.value, seats: chosen, names }),
        });
        const answer = await response.json();
        if (!response.ok) throw new Error(answer.message || String(response.status));
        const mine = answer.seats.find((s) => s.secret);
        window.sessionStorage.setItem(CREATED, JSON.stringify(answer));
        window.location.hash = "join=" + (mine ? mine.secret : answer.spectators.secret);
      } catch (error) {
        note.textContent = "The table could not be created: " + String(error.message || error);
      } finally {
        submit.disabled = false;
      }
    });
    root.replaceChildren(form, note);
    root.dataset.state = "setup";
  }

  // --- at the table -----------------------------------------------------------------------------------

  function describeTurn(view, seats) {
    const name = (seat) => (seats && seats[seat] ? seats[seat].name : `seat ${seat}`);
    if (view.to_act === null) {
      const winners = view.winners.map(name).join(" and ");
      return `The match is over: ${winners} won.`;
    }
    if (view.to_act === -1) return "Dealing…";
    if (view.seat !== null && view.to_act === view.seat) return view.legal.length ? "Your turn: click a card you may play." : "Your turn.";
    return `${name(view.to_act)} to play.`;
  }

  function moveLabel(move) {
    if (move.type === "play") return `Play ${move.card}`;
    if (move.type === "revive") return move.accept ? "Buy back in" : "Stay out";
    return move.type;
  }

  /** Sit at the table of a link's `secret`; `page.cleanups` gets what leaving the page must undo. */
  function join(root, secret, note, page) {
    root.dataset.state = "connecting";
    const created = savedLinks();
    const share = created && [...created.seats.map((s) => s.secret), created.spectators.secret].includes(secret)
      ? linksPanel(created)
      : null;
    const status = element("p", { class: "live-play-status friends-status", role: "status" });
    const seatsLine = element("p", { class: "friends-seats-line" });
    const table = element("div", { class: "live-play-table friends-table", role: "img" });
    const moves = element("div", { class: "live-play-moves friends-moves" });
    const errors = element("p", { class: "friends-error", role: "alert" });
    const record = element("button", { type: "button", class: "md-button friends-record", hidden: true }, "Download the match record");
    const leave = element("a", { href: window.location.pathname, class: "friends-leave", target: "_self" }, "Leave this table");
    root.replaceChildren(...[share, seatsLine, status, table, moves, errors, record, element("p", {}, leave), note].filter(Boolean));

    let socket = null;
    let at = -1;
    let seats = null;
    let view = null;
    let retry = 0;
    let closedForGood = false;
    let reconnecting = null;
    page.cleanups.push(() => {
      closedForGood = true; // no reconnecting once the page is left
      window.clearTimeout(reconnecting);
      if (socket) socket.close(1000, "left the page");
    });

    const send = (message) => {
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    };
    const act = (move) => {
      moves.querySelectorAll("button").forEach((b) => (b.disabled = true));
      errors.textContent = "";
      send({ type: "act", at, action: { format: view.format, kind: "action", ...move } });
    };

    record.addEventListener("click", async () => {
      const response = await fetch(api("/api/record"), { headers: { Authorization: "Bearer " + secret } });
      if (!response.ok) {
        errors.textContent = "The record is not ready: " + ((await response.json()).message || response.status);
        return;
      }
      const blob = new Blob([await response.text()], { type: "application/json" });
      const link = element("a", { href: URL.createObjectURL(blob), download: "match.cucumber.json" });
      document.body.append(link);
      link.click();
      link.remove();
    });

    function draw(message) {
      view = message.view;
      at = message.at;
      root.dataset.at = String(at);
      root.dataset.round = String(view.round_number);
      root.dataset.results = String(view.results.length);
      root.dataset.trick = String(view.trick.length);
      root.dataset.seat = view.seat === null ? "spectator" : String(view.seat);
      if (message.picture) table.innerHTML = message.picture; // drawn by the server from this seat's view
      status.textContent = describeTurn(view, seats);
      moves.replaceChildren();
      for (const move of view.legal) {
        const button = element("button", { type: "button", class: "md-button live-move", "data-card": move.card || null }, moveLabel(move));
        button.addEventListener("click", () => act(move));
        moves.append(button);
      }
      for (const card of table.querySelectorAll(".cr-legal")) {
        const move = view.legal.find((m) => m.type === "play" && m.card === card.dataset.card);
        if (!move) continue;
        card.style.cursor = "pointer";
        card.addEventListener("click", () => act(move));
      }
      const over = view.to_act === null;
      record.hidden = !over;
      root.dataset.state = over ? "over" : "playing";
    }

    function connect() {
      const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
      socket = new WebSocket(`${scheme}//${window.location.host}/api/play`);
      socket.addEventListener("open", () => {
        retry = 0;
        note.textContent = "";
        socket.send(JSON.stringify({ type: "join", link: secret, pictures: true }));
      });
      socket.addEventListener("message", (event) => {
        const message = JSON.parse(event.data);
        if (message.type === "view") draw(message);
        else if (message.type === "table") {
          seats = message.seats;
          seatsLine.textContent = message.seats
            .map((s, i) => `${i === message.seat ? "You" : s.name}${s.bot ? " (bot)" : s.online ? "" : " (away)"}`)
            .join(" · ");
          if (view) status.textContent = describeTurn(view, seats);
        } else if (message.type === "error") {
          const error = message.error;
          if (error.code === "unknown-link") closedForGood = true;
          errors.textContent = error.message;
          if (view) moves.querySelectorAll("button").forEach((b) => (b.disabled = false));
        }
      });
      socket.addEventListener("close", () => {
        if (!page.alive) return;
        if (closedForGood) {
          root.dataset.state = "offline";
          note.textContent = "This link names no seat of any table on this server.";
          return;
        }
        root.dataset.state = "connecting";
        note.textContent = "The connection was lost; reconnecting…";
        retry = Math.min(retry + 1, 6);
        reconnecting = window.setTimeout(connect, 500 * 2 ** (retry - 1));
      });
    }
    connect();
  }

  let shown = null; // the page set up now: {alive, cleanups}

  /** Undo what the page that was shown set up: its table's connection, its listeners. */
  function unmount(page) {
    page.alive = false;
    for (const cleanup of page.cleanups.splice(0)) {
      try {
        cleanup();
      } catch (error) {
        console.error(error);
      }
    }
  }

  function start() {
    if (shown) unmount(shown);
    shown = null;
    const root = document.getElementById("friends");
    if (!root) return;
    const page = { alive: true, cleanups: [] };
    shown = page;
    const note = element("p", { class: "friends-note", role: "status" });
    const route = () => {
      const found = JOIN.exec(window.location.hash);
      if (found) join(root, found[1], note, page);
      else setUpForm(root, note);
    };
    let joined = JOIN.test(window.location.hash);
    const changed = () => {
      const joining = JOIN.test(window.location.hash);
      if (joining || joined) window.location.reload(); // another seat, or leaving one (not a heading's anchor)
      joined = joining;
    };
    window.addEventListener("hashchange", changed);
    page.cleanups.push(() => window.removeEventListener("hashchange", changed));
    route();
  }

  // The theme's `document$` tells of each page shown: the first, and each one instant navigation brings.
  const pages = globalThis.document$;
  if (pages && typeof pages.subscribe === "function") pages.subscribe(() => start());
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
