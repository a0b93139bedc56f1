// The pages work without this script (notation can be typed, every button is a form);
// with it, the tile keyboard writes into the field last touched and counts the copies
// left, a change of rules redraws the keyboard for them, and advice shows its progress.
"use strict";

// The tiles written in a field, to count the copies left on the keys: single tiles, runs
// (r3-7) and groups (rbk7) as the notation writes them. The server reads and checks the
// field itself; this count only keeps the keyboard from offering a tile that is all used.
const SINGLE = /^([kbroygpwc])(\d{1,2})$/i;
const RUN = /^([kbroygpwc])(\d{1,2})-(\d{1,2})$/i;
const GROUP = /^([kbroygpwc]{2,})(\d{1,2})$/i;
const JOKER = /^j(?:=\S+)?$/i;

function colour(letter) {
  const lower = letter.toLowerCase();
  return lower === "y" ? "o" : lower;
}

function tokens(text) {
  const found = [];
  text.split(/[\s,|;]+/).forEach((word) => {
    let match;
    if (JOKER.test(word)) {
      found.push("j");
    } else if ((match = SINGLE.exec(word))) {
      found.push(colour(match[1]) + Number(match[2]));
    } else if ((match = RUN.exec(word))) {
      for (let n = Number(match[2]); n <= Number(match[3]); n += 1) found.push(colour(match[1]) + n);
    } else if ((match = GROUP.exec(word))) {
      [...match[1]].forEach((letter) => found.push(colour(letter) + Number(match[2])));
    }
  });
  return found;
}

function setUpKeyboard(board) {
  const form = board.closest("form");
  const counted = (board.dataset.counts || "").split(" ").filter(Boolean);
  let target = document.getElementById(board.dataset.target);
  if (form) {
    form.querySelectorAll("[data-tiles]").forEach((field) => {
      field.addEventListener("focus", () => { target = field; });
      field.addEventListener("input", recount);
    });
  }
  function recount() {
    const used = {};
    counted.forEach((id) => {
      const field = document.getElementById(id);
      if (field) tokens(field.value).forEach((t) => { used[t] = (used[t] || 0) + 1; });
    });
    board.querySelectorAll("button.key").forEach((key) => {
      const left = Number(key.dataset.cap) - (used[key.dataset.tile] || 0);
      key.querySelector(".left").textContent = String(Math.max(left, 0));
      key.disabled = left <= 0;
    });
  }
  function write(text) {
    if (!target) return;
    const value = target.value.replace(/\s+$/, "");
    target.value = value ? `${value} ${text}` : text;
    target.dispatchEvent(new Event("input"));
  }
  board.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button || !target) return;
    if (button.dataset.tile) {
      write(button.dataset.tile);
      button.classList.add("flash");
      setTimeout(() => button.classList.remove("flash"), 150);
    } else if (button.dataset.key === "meld") {
      if (target.value.trim() && !/\|\s*$/.test(target.value)) write("|");
    } else if (button.dataset.key === "back") {
      target.value = target.value.replace(/\s*\S+\s*$/, "");
      target.dispatchEvent(new Event("input"));
    } else if (button.dataset.key === "clear") {
      target.value = "";
      target.dispatchEvent(new Event("input"));
    }
  });
  recount();
}

function setUpRefresh(field) {
  // The keyboard depends on the rules (colours, numbers, copies): redraw the page for them,
  // keeping every field (not the form's token, which never goes in an address).
  field.addEventListener("change", () => {
    const form = field.form;
    const params = new URLSearchParams();
    new FormData(form).forEach((value, key) => {
      if (key !== "csrf" && key !== "go" && typeof value === "string") params.append(key, value);
    });
    window.location.assign(`${window.location.pathname}?${params}`);
  });
}

function followAdvice(box) {
  const bar = document.getElementById("progress");
  async function poll() {
    try {
      const answer = await fetch(`/advice/${box.dataset.advice}.json`, { headers: { accept: "application/json" } });
      const state = await answer.json();
      if (bar) bar.value = state.progress;
      if (state.done) { window.location.reload(); return; }
    } catch (error) { /* the server may be busy: try again */ }
    setTimeout(poll, 400);
  }
  setTimeout(poll, 400);
}

document.querySelectorAll("[data-keyboard]").forEach((board) => {
  if (board.dataset.mode === "type") setUpKeyboard(board);
});
document.querySelectorAll("[data-refresh]").forEach(setUpRefresh);
document.querySelectorAll("[data-advice]").forEach(followAdvice);
