// The door app (docs/API.md, "The door app"), served by the service at /door. Staff pick the
// event, then scan: typed, by a handheld scanner (which types the code and Enter) or by the
// camera. Each answer names the holder, the ticket type and the event, green for in, blue with
// EXIT for out, red with the reason; a beep and a buzz for each. Scans go out in the order they
// were made through a queue kept in localStorage: while the network is down the phone judges
// them itself, from its copy of the event's tickets (local-tickets.js), and they wait there with
// the moment they were made (check_in_at) and their Idempotency-Key, and are sent when it
// returns, so a scan is never lost and never counted twice. Every call goes through the typed
// client. Nothing on the scan path needs a secure context: it works over plain HTTP on a LAN.
import { BoxOfficeApiError, createBoxOfficeClient } from './client/index.js';
import { cameraUnavailable, startCamera } from './camera.js';
import { LocalTickets } from './local-tickets.js';

const KEY = 'box-office-door-api-key';
const QUEUE = 'box-office-door-queue';
const HISTORY = 'box-office-door-history';
const EVENT = 'box-office-door-event';
const EVENTS = 'box-office-door-events';
const DIRECTION = 'box-office-door-direction';
/** How often a scan that could not be sent is tried again, besides when the network returns. */
const RETRY_MS = 5_000;
/** How often the counter is read again (and after each scan). */
const COUNTER_MS = 5_000;
/** How often the tickets are synced while the network is up. */
const SYNC_MS = 30_000;
/** How many past scans the history keeps. */
const HISTORY_LENGTH = 30;

const $ = (selector) => document.querySelector(selector);
const barcodeInput = $('#barcode');

const store = {
  read: (name, fallback) =>
    JSON.parse(localStorage.getItem(name) ?? 'null') ?? fallback,
  write: (name, value) => localStorage.setItem(name, JSON.stringify(value)),
};

// ---- Any failure lands in the result panel -------------------------------------------------

addEventListener('error', (event) => showError(event.message));
addEventListener('unhandledrejection', (event) =>
  showError(String(event.reason?.message ?? event.reason)),
);

// ---- The key --------------------------------------------------------------------------------

/** `?key=…` (a QR code of the door's address with its key) is kept, then taken off the address. */
function initialKey() {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get('key');
  if (fromUrl) {
    localStorage.setItem(KEY, fromUrl.trim());
    url.searchParams.delete('key');
    history.replaceState(null, '', url);
  }
  return localStorage.getItem(KEY) ?? '';
}
let apiKey = initialKey();
$('#api-key').value = apiKey;

/**
 * The typed client with the door's key. `credentials: 'omit'`: the key goes in the request's
 * own Authorization header, never as the browser's Basic credentials, so a 401 (whose
 * WWW-Authenticate names Basic) is an answer for the app, not a browser sign-in prompt.
 */
const client = () =>
  createBoxOfficeClient({
    baseUrl: location.origin,
    apiKey,
    fetch: (request) => fetch(request, { credentials: 'omit' }),
  });

function useKey(key) {
  apiKey = key;
  $('#api-key').value = key;
  localStorage.setItem(KEY, apiKey);
  void start();
}

$('#key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  useKey($('#api-key').value.trim());
});

/**
 * A key scanned instead of a ticket (a QR code of the key, or of the door's address with
 * `?key=`): the phone's key from now on. No ticket's code looks like one.
 */
function scannedKey(text) {
  if (/^sk_[A-Za-z0-9_]+$/.test(text)) return text;
  try {
    const url = new URL(text);
    return url.pathname.startsWith('/door')
      ? url.searchParams.get('key')
      : null;
  } catch {
    return null;
  }
}

// ---- Ids without a secure context ------------------------------------------------------------

/** A random version 4 UUID from crypto.getRandomValues (crypto.randomUUID needs HTTPS). */
function randomId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// ---- Events ----------------------------------------------------------------------------------

/** The door's events: published ones not yet over, the next first (kept for offline loads). */
let events = store.read(EVENTS, []);
let eventId = localStorage.getItem(EVENT) ?? '';
let local = new LocalTickets(events.map((e) => e.id));

const eventName = (id) => events.find((e) => e.id === id)?.name ?? id;

async function loadEvents() {
  const { data, error, response } = await client().GET('/v1/events', {
    params: {
      query: {
        status: 'published',
        'end_at.gte': Math.floor(Date.now() / 1000),
        limit: 20,
      },
    },
  });
  if (!data) throw new BoxOfficeApiError(response.status, error);
  events = data.data.map((e) => ({
    id: e.id,
    name: e.name,
    start: e.start.unix,
  }));
  store.write(EVENTS, events);
  local = new LocalTickets(events.map((e) => e.id));
}

function showEvents() {
  if (!events.some((e) => e.id === eventId)) eventId = events[0]?.id ?? '';
  localStorage.setItem(EVENT, eventId);
  const when = (unix) =>
    new Date(unix * 1000).toLocaleString([], {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
    });
  $('#event').replaceChildren(
    ...events.map((e) => {
      const option = new Option(`${e.name} · ${when(e.start)}`, e.id);
      option.selected = e.id === eventId;
      return option;
    }),
  );
}

$('#event').addEventListener('change', () => {
  eventId = $('#event').value;
  localStorage.setItem(EVENT, eventId);
  // A copy kept for another event alone (storage was short): the new event's tickets instead.
  if (!local.events.includes(eventId)) {
    local = new LocalTickets([eventId]);
    void sync();
  }
  void refreshCounter();
  barcodeInput.focus();
});

// ---- In / Out --------------------------------------------------------------------------------

let quantity = localStorage.getItem(DIRECTION) === 'out' ? -1 : 1;
function showDirection() {
  const button = $('#direction');
  button.textContent = quantity === 1 ? 'In' : 'Out';
  button.setAttribute('aria-pressed', String(quantity === -1));
  button.setAttribute(
    'aria-label',
    quantity === 1
      ? 'Direction: in (tap for out)'
      : 'Direction: out (tap for in)',
  );
}
$('#direction').addEventListener('click', () => {
  quantity = -quantity;
  localStorage.setItem(DIRECTION, quantity === 1 ? 'in' : 'out');
  showDirection();
  // A handheld scanner types into the focused field: the next scan must land in the code field.
  barcodeInput.focus();
});

// ---- Sound and vibration ----------------------------------------------------------------------

let audio = null;
/** The AudioContext, made on a user's gesture (browsers start it only then). */
addEventListener(
  'keydown',
  () => {
    audio ??= new AudioContext();
  },
  { once: true },
);
addEventListener(
  'pointerdown',
  () => {
    audio ??= new AudioContext();
  },
  { once: true },
);

/** A high short beep and one buzz for a yes, a low long beep and two buzzes for a no. */
function signal(ok) {
  navigator.vibrate?.(ok ? 80 : [200, 100, 200]);
  if (!audio) return;
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  oscillator.frequency.value = ok ? 1320 : 220;
  oscillator.type = ok ? 'sine' : 'square';
  gain.gain.value = 0.2;
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start();
  oscillator.stop(audio.currentTime + (ok ? 0.12 : 0.4));
}

// ---- What a result says -----------------------------------------------------------------------

const time = (unix) => new Date(unix * 1000).toLocaleTimeString();

const REASONS = {
  ALREADY_CHECKED_IN: 'Already checked in',
  NOT_CHECKED_IN: 'Not checked in',
  TICKET_VOID: 'Ticket void',
  WRONG_EVENT: 'Wrong event',
  UNKNOWN: 'Unknown ticket',
};

/**
 * What the panel shows: { outcome, direction, verdict, who, what, reason, scannedAt }.
 * `result` is the client's ScanResult, a local verdict, or { outcome: 'error', message }.
 */
function describe(scan, result) {
  const ticket = result.ticket ?? null;
  const who = ticket?.name ?? '';
  const what = ticket ? `${ticket.type} · ${eventName(ticket.eventId)}` : '';
  const direction = scan.quantity === 1 ? 'in' : 'out';
  const base = { direction, who, what, reason: '', scannedAt: '' };
  if (result.outcome === 'recorded') {
    return {
      ...base,
      outcome: 'recorded',
      verdict: scan.quantity === 1 ? '✓ IN' : 'EXIT',
      scannedAt: String(result.checkIn.check_in_at),
    };
  }
  if (result.outcome === 'queued') {
    return {
      ...base,
      outcome: 'queued',
      verdict:
        scan.quantity === 1
          ? '✓ IN (offline: will be sent)'
          : 'EXIT (offline: will be sent)',
    };
  }
  if (result.outcome === 'refused') {
    const at = result.checkIn ? ` at ${time(result.checkIn.check_in_at)}` : '';
    let verdict = `✗ ${REASONS[result.reason] ?? result.reason}`;
    if (result.reason === 'ALREADY_CHECKED_IN') verdict += at;
    if (result.reason === 'NOT_CHECKED_IN' && result.checkIn) {
      verdict += `: checked out${at}`;
    }
    if (result.reason === 'WRONG_EVENT' && ticket) {
      verdict += `: for ${eventName(ticket.eventId)}`;
    }
    if (result.local) verdict += ' (offline)';
    return {
      ...base,
      outcome: 'refused',
      verdict,
      reason: result.reason,
      scannedAt: String(result.checkIn?.check_in_at ?? ''),
    };
  }
  return { ...base, outcome: 'error', verdict: `✗ ${result.message}` };
}

/** The door's fields of an issued ticket from the service. */
const ticketOf = (issued) =>
  issued
    ? {
        name: issued.full_name ?? '',
        type: issued.description,
        eventId: issued.event_id,
      }
    : null;

function paint(panel, scan, shown) {
  panel.dataset.outcome = shown.outcome;
  panel.dataset.direction = shown.direction;
  panel.dataset.barcode = scan.barcode;
  panel.dataset.reason = shown.reason;
  panel.dataset.scannedAt = shown.scannedAt;
}

/** Shows a result in the big panel and the history, and signals it. */
function show(scan, result) {
  const shown = describe(scan, result);
  const panel = $('#result');
  paint(panel, scan, shown);
  panel.querySelector('.verdict').textContent = shown.verdict;
  panel.querySelector('.who').textContent =
    shown.who || (result.ticket ? '' : scan.barcode);
  panel.querySelector('.what').textContent = shown.what;
  if (shown.outcome !== 'error' || scan.barcode) {
    signal(shown.outcome === 'recorded' || shown.outcome === 'queued');
  }
  if (!scan.barcode) return;
  const entry = {
    ...shown,
    barcode: scan.barcode,
    madeAt: scan.madeAt,
    offline: Boolean(scan.offline),
  };
  const kept = [entry, ...store.read(HISTORY, [])].slice(0, HISTORY_LENGTH);
  store.write(HISTORY, kept);
  showHistory(kept);
}

function showError(message) {
  show({ barcode: '', quantity }, { outcome: 'error', message });
}

function showHistory(entries) {
  $('#history').replaceChildren(
    ...entries.map((entry) => {
      const item = document.createElement('li');
      paint(item, entry, entry);
      item.dataset.offline = String(entry.offline);
      item.textContent = `${time(entry.madeAt)} ${entry.who || entry.barcode}: ${entry.verdict}${entry.offline ? ' (scanned offline)' : ''}`;
      return item;
    }),
  );
}

// ---- The queue --------------------------------------------------------------------------------

/** The scans not yet answered, oldest first. */
const queue = {
  read: () => store.read(QUEUE, []),
  write: (scans) => {
    store.write(QUEUE, scans);
    showQueue(scans);
  },
};

function showQueue(scans) {
  $('#queue-count').textContent = String(scans.length);
  $('#queue').replaceChildren(
    ...scans.map((scan) => {
      const item = document.createElement('li');
      item.dataset.barcode = scan.barcode;
      item.textContent = `${time(scan.madeAt)} ${scan.quantity === 1 ? 'In' : 'Out'} ${scan.barcode}`;
      return item;
    }),
  );
}

/**
 * Sends one scan. A scan that waited offline says when it was made; one sent at once lets the
 * service's clock say (a device clock may be off). Which of the two is fixed at the first try
 * (`withTime`) and kept by every retry: the retry of a request whose answer was lost must be the
 * same request under its Idempotency-Key, or the service refuses it (422) although the first one
 * may have let the person in.
 */
function send(scan) {
  return client().checkIn(
    { barcode: scan.barcode },
    {
      idempotencyKey: scan.idempotencyKey,
      quantity: scan.quantity,
      expandIssuedTicket: true,
      ...(scan.eventId ? { eventId: scan.eventId } : {}),
      ...(scan.withTime ? { checkInAt: scan.madeAt } : {}),
    },
  );
}

/** Answers worth trying again: the first try still running, a busy service. */
const RETRY_STATUSES = new Set([409, 429, 500, 502, 503, 504]);

/**
 * The network is down: every scan still waiting becomes an offline scan (sent later with the
 * moment it was made), judged now by the phone. One the phone refuses leaves the queue (red);
 * the others wait (amber: let in, to be sent).
 */
function goOffline() {
  const kept = [];
  for (const scan of queue.read()) {
    if (scan.offline) {
      kept.push(scan);
      continue;
    }
    const verdict = local.judge(scan, kept);
    const ticket = verdict.ticket;
    if (verdict.ok) {
      const offline = { ...scan, offline: true };
      kept.push(offline);
      show(offline, { outcome: 'queued', ticket });
    } else {
      show(
        { ...scan, offline: true },
        { outcome: 'refused', reason: verdict.reason, ticket, local: true },
      );
    }
  }
  queue.write(kept);
}

/** What an answer tells of the holder (the service's, else the phone's copy). */
function withTicket(scan, result) {
  const issued = result.issuedTicket;
  if (issued) local.update(issued);
  if (result.outcome === 'recorded') local.moved(scan.barcode, scan.quantity);
  return {
    ...result,
    ticket: ticketOf(issued) ?? local.find(scan.barcode) ?? null,
  };
}

/** What a failure says at the door. */
function failure(error) {
  if (error.status === 401) {
    return 'Wrong door key: enter the key again (Door key, below)';
  }
  if (error.status === 403) {
    return 'This key cannot record scans: it needs the check_in scope';
  }
  if (error.status === 404) return 'Unknown ticket';
  return error.message;
}

/** Sends the queued scans in order, until the queue is empty or one cannot be sent now. */
async function sendQueued() {
  for (;;) {
    const scans = queue.read();
    if (scans.length === 0) return;
    if (!navigator.onLine) return goOffline();
    let [scan] = scans;
    if (scan.withTime === undefined) {
      scan = { ...scan, withTime: scan.offline };
      queue.write([scan, ...scans.slice(1)]);
    }
    let result;
    try {
      result = withTicket(scan, await send(scan));
    } catch (error) {
      // fetch's TypeError: no network. The key makes sending it again safe.
      if (error instanceof TypeError) return goOffline();
      if (RETRY_STATUSES.has(error.status)) return;
      result = {
        outcome: 'error',
        message: failure(error),
        ticket: local.find(scan.barcode) ?? null,
      };
    }
    queue.write(queue.read().slice(1));
    show(scan, result);
    if (result.outcome === 'recorded') void refreshCounter();
  }
}

/** One run of sendQueued at a time: a scan made meanwhile is sent by the run under way. */
let flushing = null;
function flush() {
  flushing ??= sendQueued()
    .catch((error) => showError(error.message))
    .finally(() => {
      flushing = null;
    });
  return flushing;
}

/** A scan of `barcode` in the door's direction: queued (kept) first, then sent. */
function scanCode(barcode) {
  const key = scannedKey(barcode);
  if (key) {
    useKey(key);
    return true;
  }
  if (!apiKey) {
    showError('Enter the door key first (Door key, below)');
    return false;
  }
  const scan = {
    barcode,
    quantity,
    eventId,
    madeAt: Math.floor(Date.now() / 1000),
    idempotencyKey: randomId(),
    offline: false,
  };
  queue.write([...queue.read(), scan]);
  void flush();
  return true;
}

$('#scan').addEventListener('submit', (event) => {
  event.preventDefault();
  const barcode = barcodeInput.value.trim();
  if (barcode === '') return;
  // Cleared only once the scan is kept in the queue: a scan is never typed for nothing.
  if (scanCode(barcode)) barcodeInput.value = '';
  barcodeInput.focus();
});

// ---- The counter ------------------------------------------------------------------------------

async function refreshCounter() {
  if (!eventId || !apiKey || !navigator.onLine) return;
  try {
    const numbers = await client().attendance(eventId);
    if (numbers.event_id !== eventId) return;
    $('#inside').textContent = String(numbers.checked_in);
    $('#valid').textContent = String(numbers.tickets_valid);
    $('#counter').dataset.eventId = eventId;
    $('#counter').hidden = false;
  } catch (error) {
    // Offline, the last figures stay; otherwise (a service without the numbers) none is shown.
    if (!(error instanceof TypeError)) $('#counter').hidden = true;
  }
}

// ---- Search by name ---------------------------------------------------------------------------

$('#search-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = $('#search').value.trim();
  if (text.length < 2) return;
  let found;
  try {
    found = (
      await client().searchIssuedTickets({
        search: text,
        event_id: eventId,
        limit: 20,
      })
    ).map((t) => ({
      barcode: t.barcode,
      name: t.full_name ?? '',
      type: t.description,
      status: t.status,
      checkedIn: t.checked_in === 'true',
    }));
  } catch (error) {
    if (!(error instanceof TypeError)) {
      showError(failure(error));
      return;
    }
    // Offline: the phone's copy.
    found = local.search(text).filter((t) => t.eventId === eventId);
  }
  $('#search-results').replaceChildren(
    ...found.map((t) => {
      const item = document.createElement('li');
      item.dataset.barcode = t.barcode;
      const label = document.createElement('span');
      label.textContent = `${t.name} · ${t.type}${t.status === 'void' ? ' · void' : t.checkedIn ? ' · inside' : ''}`;
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = quantity === 1 ? 'Check in' : 'Check out';
      button.setAttribute('aria-label', `${button.textContent} ${t.name}`);
      button.addEventListener('click', () => {
        scanCode(t.barcode);
        barcodeInput.focus();
      });
      item.append(label, button);
      return item;
    }),
  );
  if (found.length === 0) {
    const item = document.createElement('li');
    item.textContent = `No ticket for “${text}”`;
    $('#search-results').replaceChildren(item);
  }
});

// ---- Camera -----------------------------------------------------------------------------------

let camera = null;
const cameraProblem = cameraUnavailable();
if (cameraProblem) {
  $('#camera-button').disabled = true;
  $('#camera-note').textContent = cameraProblem;
  $('#camera-note').hidden = false;
}
$('#camera-button').addEventListener('click', async () => {
  if (camera) return;
  $('#camera').hidden = false;
  try {
    camera = await startCamera(
      $('#camera-video'),
      (code) => scanCode(code),
      (error) => {
        camera = null;
        $('#camera').hidden = true;
        showError(`The camera stopped: ${error.message}`);
      },
    );
    document.body.dataset.decoder = camera.decoder;
  } catch (error) {
    $('#camera').hidden = true;
    showError(`The camera did not start: ${error.message}`);
  }
});
$('#camera-stop').addEventListener('click', () => {
  camera?.stop();
  camera = null;
  $('#camera').hidden = true;
  barcodeInput.focus();
});

// ---- The network ------------------------------------------------------------------------------

function showNetwork() {
  document.body.dataset.online = String(navigator.onLine);
  $('#network').textContent = navigator.onLine ? 'online' : 'offline';
}

/**
 * One sync run of the phone's copy. The tickets of all the door's events may not fit in the
 * phone's storage (a few MB): then only the chosen event's are kept, and a ticket of another
 * event is unknown offline rather than of the wrong event.
 */
async function sync() {
  if (!navigator.onLine || !apiKey) return;
  try {
    try {
      await local.sync(client());
    } catch (error) {
      if (error?.name !== 'QuotaExceededError' || local.events.length <= 1) {
        throw error;
      }
      local = new LocalTickets(eventId ? [eventId] : []);
      await local.sync(client());
    }
    document.body.dataset.synced = String(local.since);
    document.body.dataset.syncedEvents = local.events.join(',');
  } catch (error) {
    if (!(error instanceof TypeError)) showError(failure(error));
  }
}

addEventListener('online', () => {
  showNetwork();
  void flush().then(sync).then(refreshCounter);
});
addEventListener('offline', showNetwork);

// ---- Start ------------------------------------------------------------------------------------

/**
 * Checks the key at once (the events list is a read any key may make): a wrong key says so in
 * the panel, before anyone scans. Offline, the events and tickets kept from the last run serve.
 */
async function start() {
  document.body.dataset.state = 'loading';
  if (!apiKey) {
    $('#settings').open = true;
    showError('Enter the door key (a key of scope check_in), then Save');
    document.body.dataset.state = 'no-key';
    return;
  }
  try {
    await loadEvents();
  } catch (error) {
    if (!(error instanceof TypeError)) {
      $('#settings').open = true;
      showError(failure(error));
      document.body.dataset.state = 'bad-key';
      return;
    }
  }
  showEvents();
  document.body.dataset.state = 'ready';
  // The key is in: back to the top, where the scanning happens.
  $('#settings').open = false;
  scrollTo(0, 0);
  barcodeInput.focus();
  void flush();
  await sync();
  await refreshCounter();
}

$('#offline-note').textContent = navigator.serviceWorker
  ? 'This page also works with no network: it is kept on this phone.'
  : 'On this address (plain HTTP) the page needs the network to load; once loaded, scans made offline are kept and sent later.';
if (navigator.serviceWorker) {
  navigator.serviceWorker
    .register('/door/sw.js', { scope: '/door' })
    .catch((error) => showError(`Offline mode unavailable: ${error.message}`));
}

showNetwork();
showDirection();
showQueue(queue.read());
showHistory(store.read(HISTORY, []));
showEvents();
setInterval(() => void flush(), RETRY_MS);
setInterval(() => void refreshCounter(), COUNTER_MS);
setInterval(() => void sync(), SYNC_MS);
void start();
