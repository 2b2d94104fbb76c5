// page-driver.js PAGE OUT.json [SEARCH]: opens the page of `strata plot`
// (PAGE, a file) in the system's Chromium, headless, through puppeteer-core
// (the DevTools protocol), acts as a user would and writes what it saw to
// OUT.json for tests/t-page.sh to check:
//   errors     console errors, page errors, dialogs and requests beyond the file
//   range      the time range shown: at first, after a drag, after the reset
//   tree_at    the tree's moment ("at" of the snapshot) before and after a pin
//   pinned     what the box of the pinned moment says
//   tree       the pinned tree's rows, as `strata report --tree --at` prints them
//   search     what searching SEARCH marks
//   finding    the band highlighted by a click on the first finding
//   sorted     the values of the table's columns after a click on each header
//   age        the bands and legend of the heap by age (its toggle), and back
//   texts      the legend's labels and whole names, the tips' lines, the tree's names
//   findings   every finding as shown: its title, why, words, and each list of its
//              evidence (stack, parts, freed by...) with its items
//   contexts   the table's contexts by rank: rank and whole name
//   elements   the page's script, b, img and iframe elements at the end
"use strict";
const fs = require("fs");
const path = require("path");
const puppeteer = require("puppeteer-core");

const [page_file, out_file, query = "decoder_decode"] = process.argv.slice(2);
const url = "file://" + path.resolve(page_file);

function indent(depth) {
  let text = "";
  for (let i = 1; i < depth && i <= 64; i++) text += "| ";
  if (depth > 65) text += "[" + depth + "] ";
  return text;
}

async function main() {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage"],
  });
  const facts = { errors: [] };
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 1000 });
    page.on("console", (m) => { if (m.type() === "error") facts.errors.push("console: " + m.text()); });
    page.on("pageerror", (e) => facts.errors.push("page error: " + e.message));
    page.on("dialog", async (d) => { facts.errors.push("dialog: " + d.message()); await d.dismiss(); });
    await page.setRequestInterception(true);
    page.on("request", (r) => {
      if (r.url() !== url && !r.url().startsWith("data:")) {
        facts.errors.push("request: " + r.url());
        r.abort();
      } else {
        r.continue();
      }
    });
    const started = Date.now();
    await page.goto(url, { waitUntil: "load" });
    await page.waitForSelector("#graph svg path.band");
    facts.load_ms = Date.now() - started;
    const text = (selector) => page.$eval(selector, (e) => e.textContent);
    const box = await page.$eval("#graph svg", (svg) => {
      const r = svg.getBoundingClientRect();
      return { x: r.left, y: r.top, width: r.width, height: r.height };
    });
    const left = box.x + 72, right = box.x + box.width - 12, middle = box.y + 220;
    const at = (share) => left + share * (right - left);

    // Hover over every band: the tip's lines.
    facts.texts = { tips: [] };
    const bands = await page.$$eval("#graph path.band", (paths) => paths.length);
    facts.bands = bands;
    for (let b = 0; b < bands; b++) {
      const point = await page.evaluate((b) => {
        const path = document.querySelectorAll("#graph path.band")[b];
        const length = path.getTotalLength();
        // A point inside the band: between its upper edge and its lower one.
        for (let k = 1; k < 40; k++) {
          const p = path.getPointAtLength(length * k / 80);
          const q = path.getPointAtLength(length - length * k / 80);
          if (Math.abs(p.x - q.x) < 2 && Math.abs(p.y - q.y) > 3) {
            const r = path.ownerSVGElement.getBoundingClientRect();
            return { x: r.left + p.x, y: r.top + (p.y + q.y) / 2 };
          }
        }
        return null;
      }, b);
      if (!point) continue;
      await page.mouse.move(point.x, point.y);
      const lines = await page.$$eval("#tip div", (ds) => ds.map((d) => d.textContent));
      facts.texts.tips.push(lines);
    }
    await page.mouse.move(box.x + 5, box.y + 5);

    // Zoom: drag from 30% to 60% of the time axis; then the reset.
    facts.range = [await text("#range")];
    facts.tree_at = [await page.$eval("#tree-when", (e) => e.getAttribute("data-at"))];
    await page.mouse.move(at(0.3), middle);
    await page.mouse.down();
    await page.mouse.move(at(0.45), middle, { steps: 5 });
    await page.mouse.move(at(0.6), middle, { steps: 5 });
    await page.mouse.up();
    facts.range.push(await text("#range"));
    facts.tree_at.push(await page.$eval("#tree-when", (e) => e.getAttribute("data-at")));
    await page.click("#reset");
    facts.range.push(await text("#range"));

    // Pin a moment at 80% of the run.
    await page.mouse.click(at(0.8), box.y + box.height - 60);
    facts.pinned = await page.$eval("#pinned", (p) => (p.hidden ? null : p.innerText));
    facts.tip_after_pin = await page.$eval("#tip", (t) => getComputedStyle(t).display);
    facts.tree_at.push(await page.$eval("#tree-when", (e) => e.getAttribute("data-at")));
    await page.click("#expand");
    facts.tree = await page.$$eval("#tree .row", (rows) => rows.map((r) => ({
      depth: +r.getAttribute("data-depth"),
      share: r.querySelector(".share").textContent,
      name: r.querySelector(".name").textContent,
    })));
    facts.tree = facts.tree.map((r) =>
      r.depth === 0 ? r.share + " " + r.name : indent(r.depth) + "->" + r.share + " " + r.name);
    facts.texts.tree = await page.$$eval("#tree .row .name", (ns) => ns.map((n) => n.textContent));

    // Search, in the tree and in the flame graph.
    await page.type("#search", query);
    facts.search = {
      matches: await text("#matches"),
      rows: await page.$$eval("#tree .row.match .name", (ns) => ns.map((n) => n.textContent)),
    };
    await page.click("input[name=view][value=flame]");
    facts.search.boxes = await page.$$eval("#flame .box.match", (bs) => bs.map((b) => b.textContent));
    facts.search.flame_hidden = await page.$eval("#flame", (f) => f.hidden);

    // The first finding: its band highlighted, its details open.
    facts.finding = await page.evaluate(() => {
      const card = document.querySelector(".finding");
      if (!card) return null;
      card.click();
      const paths = Array.from(document.querySelectorAll("#graph path.band"));
      const items = Array.from(document.querySelectorAll("#legend li"));
      return {
        title: card.querySelector(".finding-title").textContent,
        band: paths.findIndex((p) => p.classList.contains("highlighted")),
        legend: items.findIndex((i) => i.classList.contains("highlighted")),
        open: card.querySelector("details").open,
        stack: Array.from(card.querySelectorAll("details li")).map((l) => l.textContent),
      };
    });

    // Every finding, and the table's contexts, as shown (before any click).
    facts.findings = await page.$$eval(".finding", (cards) => cards.map((card) => {
      const text = (selector) => {
        const e = card.querySelector(selector);
        return e ? e.textContent : null;
      };
      return {
        title: text(".finding-title"), why: text(".why"), words: text(".words"),
        lists: Array.from(card.querySelectorAll(".evidence")).map((box) => ({
          title: box.querySelector(".evidence-title").textContent,
          items: Array.from(box.querySelectorAll("li")).map((l) => l.textContent),
        })),
      };
    }));
    facts.contexts = await page.$$eval("#contexts tbody tr", (rows) => rows.map((r) => ({
      rank: +r.getAttribute("data-rank"), name: r.querySelector("td.context").title,
    })));

    // The table sorted by each column (the first click sorts the numbers largest first).
    facts.sorted = {};
    const keys = await page.$$eval("#contexts th", (ths) => ths.map((t) => t.getAttribute("data-key")));
    for (const key of keys) {
      await page.click(`#contexts th[data-key=${key}]`);
      const column = keys.indexOf(key);
      facts.sorted[key] = await page.$$eval("#contexts tbody tr", (rows, column) =>
        rows.map((r) => r.children[column].getAttribute("data-value")), column);
    }

    // The heap by age, when the page has it: the toggle draws its layers.
    facts.age = await page.evaluate(() => {
      if (document.getElementById("age-toggle").hidden) return null;
      const toggle = document.getElementById("by-age");
      toggle.click();
      const seen = {
        bands: document.querySelectorAll("#graph path.band").length,
        legend: Array.from(document.querySelectorAll("#legend li")).map((i) => i.title),
      };
      toggle.click();
      seen.back = document.querySelectorAll("#graph path.band").length;
      return seen;
    });

    // The legend: a click highlights its band.
    await page.click("#legend li:nth-child(2)");
    facts.legend_click = await page.$$eval("#graph path.band", (ps) =>
      ps.findIndex((p) => p.classList.contains("highlighted")));
    facts.texts.legend = await page.$$eval("#legend li", (is) =>
      is.map((i) => ({ label: i.querySelector(".label").textContent, title: i.title })));
    facts.texts.findings = await page.$$eval(".finding .finding-title, .finding .why", (es) =>
      es.map((e) => e.textContent));
    facts.texts.title = await text("#title");
    facts.elements = await page.evaluate(() => ({
      script: document.querySelectorAll("script").length,
      b: document.querySelectorAll("b").length,
      img: document.querySelectorAll("img").length,
      iframe: document.querySelectorAll("iframe").length,
    }));
  } finally {
    await browser.close();
  }
  fs.writeFileSync(out_file, JSON.stringify(facts, null, 1));
}

main().catch((e) => {
  console.error("page-driver: " + e.stack);
  process.exit(1);
});
