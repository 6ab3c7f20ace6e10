// The door page of the demo server (`npm start`, then /door): type or scan a barcode, see green or
// red with the reason and the time of the deciding scan. Scans go out in the order they were
// made, through a queue kept in localStorage: while the network is down they wait there with the
// moment they were made (check_in_at) and their Idempotency-Key, and are sent when it returns, so
// a scan is never lost and never counted twice. Built on the typed client (client.checkIn).
import { createBoxOfficeClient } from '@box-office/client';

const QUEUE = 'box-office-door-queue';
const KEY = 'box-office-door-api-key';
/** How often a scan that could not be sent is tried again, besides when the network returns. */
const RETRY_MS = 5_000;

const $ = (selector) => document.querySelector(selector);

const keyInput = $('#api-key');
keyInput.value =
  new URLSearchParams(location.search).get('key') ??
  localStorage.getItem(KEY) ??
  'sk_demo_boxoffice_1';
keyInput.addEventListener('change', () =>
  localStorage.setItem(KEY, keyInput.value.trim()),
);
const client = () =>
  createBoxOfficeClient({
    baseUrl: location.origin,
    apiKey: keyInput.value.trim(),
  });

/** The scans not yet answered, oldest first. */
const queue = {
  read: () => JSON.parse(localStorage.getItem(QUEUE) ?? '[]'),
  write: (scans) => {
    localStorage.setItem(QUEUE, JSON.stringify(scans));
    showQueue(scans);
  },
};

const time = (unix) => new Date(unix * 1000).toLocaleTimeString();
const direction = (quantity) => (quantity === 1 ? 'In' : 'Out');

/** What a result says at the door. */
function describe(result) {
  if (result.outcome === 'recorded') {
    const { quantity, issued_ticket_id, check_in_at } = result.checkIn;
    return `✓ ${direction(quantity)}: ${issued_ticket_id} at ${time(check_in_at)}`;
  }
  if (result.outcome === 'refused') {
    const at = result.checkIn ? ` at ${time(result.checkIn.check_in_at)}` : '';
    switch (result.reason) {
      case 'ALREADY_CHECKED_IN':
        return `✗ Already checked in${at}`;
      case 'NOT_CHECKED_IN':
        return result.checkIn
          ? `✗ Not checked in: checked out${at}`
          : '✗ Not checked in';
      default:
        return `✗ Ticket void${at ? `: last scanned${at}` : ''}`;
    }
  }
  return `✗ ${result.message}`;
}

/** Shows a scan's result in the big panel (and, for one that waited, in the list below). */
function show(scan, result) {
  const panel = $('#result');
  panel.textContent = `${scan.barcode}: ${describe(result)}`;
  panel.dataset.outcome = result.outcome;
  panel.dataset.barcode = scan.barcode;
  panel.dataset.reason = result.reason ?? '';
  panel.dataset.scannedAt = String(result.checkIn?.check_in_at ?? '');
  if (scan.offline) {
    const item = document.createElement('li');
    item.dataset.outcome = result.outcome;
    item.dataset.barcode = scan.barcode;
    item.textContent = `${time(scan.madeAt)} ${direction(scan.quantity)} ${scan.barcode}: ${describe(result)}`;
    $('#synced').append(item);
  }
}

function showQueue(scans) {
  $('#queue-count').textContent = String(scans.length);
  $('#queue').replaceChildren(
    ...scans.map((scan) => {
      const item = document.createElement('li');
      item.dataset.barcode = scan.barcode;
      item.textContent = `${time(scan.madeAt)} ${direction(scan.quantity)} ${scan.barcode}`;
      return item;
    }),
  );
}

function showQueued(scan) {
  const panel = $('#result');
  panel.textContent = `${scan.barcode}: waiting for the network (${direction(scan.quantity)} at ${time(scan.madeAt)})`;
  panel.dataset.outcome = 'queued';
  panel.dataset.barcode = scan.barcode;
  panel.dataset.reason = '';
  panel.dataset.scannedAt = '';
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
      ...(scan.withTime ? { checkInAt: scan.madeAt } : {}),
    },
  );
}

/** Answers worth trying again: the network, the first try still running, a busy service. */
const RETRY_STATUSES = new Set([409, 429, 500, 502, 503, 504]);

/**
 * The scan at the head of the queue waits: when the network is down, as a scan made offline
 * (sent later with the moment it was made), which the panel says when it was sent at once.
 */
function wait(offline) {
  const scans = queue.read();
  if (!offline || scans[0].offline) return;
  scans[0] = { ...scans[0], offline: true };
  queue.write(scans);
  showQueued(scans[0]);
}

/** Sends the queued scans in order, until the queue is empty or one cannot be sent now. */
async function sendQueued() {
  for (;;) {
    const scans = queue.read();
    if (scans.length === 0) return;
    if (!navigator.onLine) return wait(true);
    let [scan] = scans;
    if (scan.withTime === undefined) {
      scan = { ...scan, withTime: scan.offline };
      queue.write([scan, ...scans.slice(1)]);
    }
    let result;
    try {
      result = await send(scan);
    } catch (error) {
      // fetch's TypeError: no network. The key makes sending it again safe.
      if (error instanceof TypeError) return wait(true);
      if (RETRY_STATUSES.has(error.status)) return wait(false);
      result = { outcome: 'error', message: error.message };
    }
    queue.write(queue.read().slice(1));
    show(scan, result);
  }
}

/** One run of sendQueued at a time: a scan made meanwhile is sent by the run under way. */
let flushing = null;
function flush() {
  flushing ??= sendQueued().finally(() => {
    flushing = null;
  });
  return flushing;
}

$('#scan').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('#barcode');
  const barcode = input.value.trim();
  if (barcode === '') return;
  input.value = '';
  input.focus();
  const quantity = Number(
    document.querySelector('input[name="quantity"]:checked').value,
  );
  const scan = {
    barcode,
    quantity,
    madeAt: Math.floor(Date.now() / 1000),
    idempotencyKey: crypto.randomUUID(),
    offline: !navigator.onLine,
  };
  queue.write([...queue.read(), scan]);
  if (scan.offline) showQueued(scan);
  void flush();
});

function showNetwork() {
  document.body.dataset.online = String(navigator.onLine);
  $('#network').textContent = navigator.onLine ? 'online' : 'offline';
}
addEventListener('online', () => {
  showNetwork();
  void flush();
});
addEventListener('offline', showNetwork);
setInterval(() => void flush(), RETRY_MS);
showNetwork();
showQueue(queue.read());
void flush();
