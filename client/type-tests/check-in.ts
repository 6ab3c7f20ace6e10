// Compile-time checks of checkIn's types (`npm run client:build` type-checks this file; it is never
// run): a scan names its ticket one way, carries its Idempotency-Key, and resolves to a result
// that says whether it was recorded or why not.
import {
  type CheckIn,
  type IssuedTicket,
  type ScanResult,
  createBoxOfficeClient,
} from '../src/index.js';

type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2
    ? true
    : false;
const expectType = <T extends true>(): T => true as T;

export async function door(barcode: string): Promise<string> {
  const client = createBoxOfficeClient({
    baseUrl: 'http://localhost:3000',
    apiKey: 'sk_demo_boxoffice_1',
  });
  const result = await client.checkIn(
    { barcode },
    {
      idempotencyKey: 'scan-1',
      checkInAt: 1786645321,
      eventId: 'ev_1',
      expandIssuedTicket: true,
    },
  );
  expectType<Equal<typeof result, ScanResult>>();
  if (result.outcome === 'recorded') {
    expectType<Equal<typeof result.checkIn, CheckIn>>();
    expectType<Equal<typeof result.issuedTicket, IssuedTicket | null>>();
    return result.checkIn.id;
  }
  expectType<
    Equal<
      typeof result.reason,
      'WRONG_EVENT' | 'ALREADY_CHECKED_IN' | 'NOT_CHECKED_IN' | 'TICKET_VOID'
    >
  >();
  expectType<Equal<typeof result.checkIn, CheckIn | null>>();
  expectType<Equal<typeof result.issuedTicket, IssuedTicket | null>>();
  await client.checkIn(
    { issuedTicketId: 'it_5' },
    { idempotencyKey: 'scan-2', quantity: -1 },
  );
  await client.checkIn(
    // @ts-expect-error: one way of naming the ticket, not both
    { barcode, issuedTicketId: 'it_5' },
    { idempotencyKey: 'k' },
  );
  // @ts-expect-error: every scan carries its Idempotency-Key
  await client.checkIn({ barcode }, {});
  // @ts-expect-error: a quantity is 1 or -1
  await client.checkIn({ barcode }, { idempotencyKey: 'k', quantity: 2 });
  return result.message;
}
