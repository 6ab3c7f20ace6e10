// `node examples/sync-mirror.mjs [state.json]`: keeps a local copy of a box office's orders and
// issued tickets in one JSON file, and on every run reads only what changed since the last one,
// following the recipe of docs/API.md ("Incremental sync"): the lists in updated_at order from
// the largest updated_at kept, and the change feed for deletions. Prints what changed.
// API_URL (default http://localhost:3000) and API_KEY (default the demo key of box office 1).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const API_URL = process.env.API_URL ?? 'http://localhost:3000';
const API_KEY = process.env.API_KEY ?? 'sk_demo_boxoffice_1';
const STATE = process.argv[2] ?? 'box-office-mirror.json';
const AUTH = `Basic ${Buffer.from(`${API_KEY}:`).toString('base64')}`;

/** The two lists the mirror keeps, and the change-feed family of each. */
const LISTS = [
  { name: 'orders', path: '/v1/orders', family: 'ORDER' },
  {
    name: 'issued_tickets',
    path: '/v1/issued_tickets',
    family: 'ISSUED_TICKET',
  },
];

async function get(pathAndQuery) {
  const res = await fetch(API_URL + pathAndQuery, {
    headers: { Authorization: AUTH },
  });
  const body = await res.json();
  if (!res.ok) {
    const error = new Error(`${pathAndQuery}: ${res.status} ${body.message}`);
    error.status = res.status;
    throw error;
  }
  return { body, headers: res.headers };
}

/** Every item from `start`, following links.next; upserts each into `into`. */
async function walk(start, into) {
  let kept = 0;
  let seen = 0;
  for (let link = start; link !== null;) {
    const { body } = await get(link);
    for (const item of body.data) {
      into[item.id] = item;
      kept = Math.max(kept, item.updated_at);
      seen++;
    }
    link = body.links.next;
  }
  return { kept, seen };
}

function load() {
  if (!existsSync(STATE)) return null;
  return JSON.parse(readFileSync(STATE, 'utf8'));
}

function save(state) {
  // Written whole, then moved into place: a run that dies leaves the previous state.
  writeFileSync(`${STATE}.tmp`, JSON.stringify(state));
  renameSync(`${STATE}.tmp`, STATE);
}

async function fullRead() {
  // Note the feed's head first: every change after it is read from the feed next time.
  const { headers } = await get('/v1/changes?limit=1');
  const state = { feed: headers.get('X-Change-Head'), kept: {}, items: {} };
  for (const list of LISTS) {
    state.items[list.name] = {};
    const { kept, seen } = await walk(
      `${list.path}?sort=updated_at`,
      state.items[list.name],
    );
    state.kept[list.name] = kept;
    console.log(`${list.name}: ${seen} read`);
  }
  return state;
}

async function update(state) {
  for (const list of LISTS) {
    const items = state.items[list.name];
    const before = new Set(Object.keys(items));
    const { kept, seen } = await walk(
      `${list.path}?sort=updated_at&updated_at.gte=${state.kept[list.name]}`,
      items,
    );
    state.kept[list.name] = Math.max(state.kept[list.name], kept);
    const added = Object.keys(items).filter((id) => !before.has(id)).length;
    console.log(
      `${list.name}: ${seen} read, ${added} new, ${seen - added} updated or seen again`,
    );
  }
  // Deletions reach no list: the feed tells them. Every entry moves the position, so the next
  // run starts after the last one read.
  let removed = 0;
  for (let link = `/v1/changes?starting_after=${state.feed}`; ;) {
    const { body } = await get(link);
    for (const change of body.data) {
      const list = LISTS.find((l) => change.type === `${l.family}.DELETED`);
      if (list && change.resource_id in state.items[list.name]) {
        delete state.items[list.name][change.resource_id];
        removed++;
      }
      state.feed = change.id;
    }
    if (body.data.length === 0) break;
    link = body.links.next;
  }
  console.log(`deleted: ${removed}`);
}

let state = load();
try {
  if (state === null) {
    console.log(`first run: reading ${API_URL} in full into ${STATE}`);
    state = await fullRead();
  } else {
    await update(state);
  }
} catch (error) {
  if (error.status !== 410) throw error;
  // The feed no longer reaches back to the last run: read everything again.
  console.log(
    'the change feed has moved past the last run: reading in full again',
  );
  state = await fullRead();
}
save(state);
