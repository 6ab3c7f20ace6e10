// `WEBHOOK_SECRET=whsec_… node examples/webhook-receiver.mjs [port]`: a webhook receiver
// (docs/API.md, "Webhooks"; what a receiver should do: docs/OPERATIONS.md, "Webhooks"). It listens
// on 127.0.0.1 (port 4000 by default), verifies both signatures of every delivery over the raw
// body, refuses one older or newer than five minutes, drops an id it has seen, answers 200 at
// once and prints the event. WEBHOOK_SECRET is the `secret` of the answer that created the
// endpoint.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const SECRET = process.env.WEBHOOK_SECRET;
const PORT = Number(process.argv[2] ?? 4000);
const TOLERANCE_S = 300;
if (!SECRET?.startsWith('whsec_')) {
  console.error("Set WEBHOOK_SECRET to the endpoint's secret (whsec_…)");
  process.exit(2);
}

/** Ticket Tailor's signature: `t=<unix>,v1=<hex HMAC-SHA256 of t and the body, keyed with the secret>`. */
function verifyTicketTailor(header, body) {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!match) return 'no Tickettailor-Webhook-Signature';
  const [, t, sent] = match;
  if (Math.abs(Date.now() / 1000 - Number(t)) > TOLERANCE_S)
    return 'stale timestamp';
  const expected = createHmac('sha256', SECRET)
    .update(t + body)
    .digest();
  return timingSafeEqual(expected, Buffer.from(sent, 'hex'))
    ? null
    : 'bad signature';
}

/** Standard Webhooks' signature, by its own library (which checks the timestamp too). */
function verifyStandard(headers, body) {
  try {
    new Webhook(SECRET).verify(body, {
      'webhook-id': headers['webhook-id'] ?? '',
      'webhook-timestamp': headers['webhook-timestamp'] ?? '',
      'webhook-signature': headers['webhook-signature'] ?? '',
    });
    return null;
  } catch (error) {
    return error.message;
  }
}

/** Ids already handled: a delivery is at least once, and a replay resends on purpose. */
const seen = new Set();

createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const refusal =
      verifyTicketTailor(req.headers['tickettailor-webhook-signature'], body) ??
      verifyStandard(req.headers, body);
    if (refusal !== null) {
      console.log(`refused a delivery: ${refusal}`);
      res.writeHead(400).end();
      return;
    }
    // Answer first, work after: a slow answer is a failure, retried.
    res.writeHead(200).end();
    const event = JSON.parse(body);
    if (seen.has(event.id)) {
      console.log(`${event.id} again (a retry or a replay): skipped`);
      return;
    }
    seen.add(event.id);
    const name = event.payload.name ?? event.payload.status ?? '';
    console.log(
      `${event.id} ${event.event} ${event.resource_url} ${name}`.trimEnd(),
    );
  });
}).listen(PORT, '127.0.0.1', () => {
  console.log(
    `Receiving webhooks at http://127.0.0.1:${PORT}/webhooks (both signatures verified)`,
  );
});
