// The example front end: upcoming events and recent orders of one box office, read with the
// typed client from another origin (CORS). The events part shows what a public page may:
// published events that are not private, their ticket types but the hidden ones (sold with an
// access code), times in the event's own time zone. Query parameters: `api` (the API's base URL,
// default http://localhost:3000), `key` (default the first demo key) and `now` (Unix seconds,
// default the present: what "upcoming" is counted from).
import { createBoxOfficeClient, listAll } from '@box-office/client';

const params = new URLSearchParams(location.search);
const apiUrl = params.get('api') ?? 'http://localhost:3000';
const apiKey = params.get('key') ?? 'sk_demo_boxoffice_1';
const now = Number(params.get('now') ?? Date.now() / 1000);
// Events from the start of today (UTC): the request, and so its ETag, stays the same all day.
const today = Math.floor(now / 86400) * 86400;

const UPCOMING_EVENTS = 5;
const RECENT_ORDERS = 10;

/** The client's conditional-request store, kept in sessionStorage so that it outlives a reload. */
const sessionStore = {
  get: (url) => JSON.parse(sessionStorage.getItem(`etag ${url}`)) ?? undefined,
  set: (url, entry) =>
    sessionStorage.setItem(`etag ${url}`, JSON.stringify(entry)),
};

const client = createBoxOfficeClient({
  baseUrl: apiUrl,
  apiKey,
  cache: sessionStore,
});
client.use({
  onResponse({ response }) {
    const remaining = response.headers.get('X-Rate-Limit-Remaining');
    if (remaining !== null) text('#rate-limit-remaining', remaining);
  },
});

/** The first `count` items of a list that `keep` keeps: leaving the loop stops the walk. */
async function first(count, path, query, keep = () => true) {
  const items = [];
  for await (const item of listAll(client, path, { query })) {
    if (keep(item)) items.push(item);
    if (items.length === count) break;
  }
  return items;
}

/** Public: published (the filter) and not private, which only a link and code reach. */
const isPublic = (event) => event.private !== 'true';

async function main() {
  const [events, orders] = await Promise.all([
    first(
      UPCOMING_EVENTS,
      '/v1/events',
      { status: 'published', 'start_at.gte': today, limit: UPCOMING_EVENTS },
      isPublic,
    ),
    first(RECENT_ORDERS, '/v1/orders', { limit: RECENT_ORDERS }),
  ]);
  const day = new Date(today * 1000).toISOString().slice(0, 10);
  text('#events-note', `From ${day} (UTC), the next first.`);
  document.querySelector('#events').replaceChildren(...events.map(eventItem));
  document.querySelector('#orders').replaceChildren(...orders.map(orderRow));
}

function eventItem(event) {
  const where =
    event.online_event === 'true'
      ? 'Online'
      : (event.venue.name ?? 'Venue to be announced');
  const shown = event.ticket_types.filter((type) => type.status !== 'hidden');
  const types = shown.map((type) =>
    el(
      'tr',
      {},
      el('td', {}, type.name),
      el('td', { class: 'money' }, money(type.price, event.currency)),
      el('td', {}, type.status.replace('_', ' ')),
      el('td', {}, `${type.quantity} left`),
    ),
  );
  return el(
    'li',
    { 'data-id': event.id },
    el('strong', {}, event.name),
    ` · ${event.start.formatted} (${event.timezone}) · ${where} · `,
    el(
      'span',
      { class: 'availability' },
      event.tickets_available === 'true'
        ? 'tickets available'
        : 'no tickets available',
    ),
    types.length > 0
      ? el('table', {}, el('tbody', {}, ...types))
      : el('p', { class: 'muted' }, 'No ticket types yet.'),
  );
}

function orderRow(order) {
  return el(
    'tr',
    { 'data-id': order.id },
    el('td', {}, order.id),
    el('td', {}, new Date(order.created_at * 1000).toLocaleString('en-GB')),
    el('td', {}, order.buyer_details.name),
    el('td', {}, order.event_summary.name),
    el('td', {}, order.status),
    el(
      'td',
      { class: 'money' },
      money(order.total, order.currency.code, order.currency.base_multiplier),
    ),
  );
}

/**
 * Minor units as a price. Every supported currency has 100 minor units but the yen (docs/API.md,
 * Money); an event names only its currency, an order also gives the multiplier.
 */
function money(minor, code, multiplier = code === 'jpy' ? 1 : 100) {
  return new Intl.NumberFormat('en-GB', {
    style: 'currency',
    currency: code.toUpperCase(),
  }).format(minor / multiplier);
}

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

function text(selector, value) {
  document.querySelector(selector).textContent = value;
}

main().then(
  () => {
    document.body.dataset.state = 'ready';
  },
  (error) => {
    const box = document.querySelector('#error');
    box.textContent = `Could not load: ${error.message}`;
    box.hidden = false;
    document.body.dataset.state = 'failed';
    console.error(error);
  },
);
