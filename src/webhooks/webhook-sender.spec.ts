import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ABORTED, WebhookSender } from './webhook-sender';

// A send ends when its signal does: the delivery worker aborts it when its lease is lost, so that
// it never goes on sending while another instance sends the same event.

let server: Server;
let url: string;
/** Resolves each time the receiver has a request, which it never answers. */
let received: () => void;

beforeAll(async () => {
  server = createServer(() => received());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('WebhookSender', () => {
  const sender = new WebhookSender(true);
  afterAll(() => sender.close());

  it('ends a send in flight when its signal aborts: ABORTED, not an answer', async () => {
    const lost = new AbortController();
    const arrived = new Promise<void>((resolve) => (received = resolve));
    const attempt = sender.send(url, '{}', {}, lost.signal);
    await arrived;
    lost.abort();
    await expect(attempt).resolves.toMatchObject({
      statusCode: null,
      error: ABORTED,
    });
  });

  it('sends nothing for a signal aborted before it starts', async () => {
    const lost = new AbortController();
    lost.abort();
    let requests = 0;
    received = () => (requests += 1);
    await expect(
      sender.send(url, '{}', {}, lost.signal),
    ).resolves.toMatchObject({ statusCode: null, error: ABORTED });
    expect(requests).toBe(0);
  });
});
