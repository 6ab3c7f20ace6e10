import { RESOURCE, idOf } from '../common/resources/resource-identities';
/**
 * Whether a door scan may be recorded, given the ticket's history (docs/API.md, "Recording
 * scans"): the rule every scan this service records follows, decided on the history read inside
 * the scan's write transaction, with the ticket locked.
 *
 * A ticket's scans, in the order they happened (`check_in_at`, then `created_at`, then id), must
 * keep a running sum of `quantity` that is always 0 or 1: in, out, in again, never in twice.
 * Recorded now, a scan takes its place after every scan made at or before its `check_in_at`
 * (they were all recorded earlier, with smaller ids). So it is allowed only when:
 *
 * - the ticket was out at that moment for a check-in, in for a check-out; and
 * - no scan made later is recorded: an alternating history has no room for one more scan
 *   anywhere but at its end. An offline scan uploaded late is therefore accepted when it is the
 *   ticket's latest (an offline check-out after the last check-in, say), and refused when the
 *   ticket has a later scan, which would become a second entry or a second exit.
 *
 * A void ticket lets no one in once the void has committed: a live check-in (no `check_in_at`
 * sent) is refused whatever the second, and an offline one is accepted only when it was made
 * strictly before `voided_at` (the void's stamp has whole seconds, so a scan in the void's own
 * second may have come after it). A check-out is decided by the state alone: people leave.
 */

/** The reasons a scan is refused: stable codes, each a 409 of its own (docs/API.md, Errors). */
export const SCAN_REFUSALS = [
  'WRONG_EVENT',
  'ALREADY_CHECKED_IN',
  'NOT_CHECKED_IN',
  'TICKET_VOID',
] as const;
export type ScanRefusal = (typeof SCAN_REFUSALS)[number];

/** One recorded scan of the ticket. */
export interface RecordedScan {
  id: number;
  quantity: number;
  checkInAt: number;
  createdAt: number;
}

export type ScanDecision =
  | { accepted: true }
  | {
      accepted: false;
      reason: ScanRefusal;
      /**
       * The scan that decides it, which the 409 shows ("scanned at 19:42"): the check-in that
       * already let the ticket in, the check-out that already let it out, or the ticket's last
       * scan for a void ticket; null when the ticket has none, and for WRONG_EVENT (decided
       * by the ticket's event alone, in scan-recorder.ts).
       */
      deciding: RecordedScan | null;
    };

/** The order scans happened in: check_in_at, then created_at, then id. */
export function inScanOrder(a: RecordedScan, b: RecordedScan): number {
  return a.checkInAt - b.checkInAt || a.createdAt - b.createdAt || a.id - b.id;
}

/**
 * Decides a scan of `quantity` (1 in, -1 out) made at `at`, for a ticket with these scans (in any
 * order) and this `voidedAt` (null while valid); `offline`: the scan came with its own
 * `check_in_at` (else it is live, made now).
 */
export function decideScan(
  history: readonly RecordedScan[],
  quantity: 1 | -1,
  at: number,
  voidedAt: number | null,
  offline: boolean,
): ScanDecision {
  const ordered = [...history].sort(inScanOrder);
  const beforeVoid = offline && voidedAt !== null && at < voidedAt;
  if (voidedAt !== null && quantity === 1 && !beforeVoid) {
    return refuse('TICKET_VOID', ordered.at(-1) ?? null);
  }
  const before = ordered.filter((scan) => scan.checkInAt <= at);
  const later = ordered.find((scan) => scan.checkInAt > at);
  const inside = before.reduce((sum, scan) => sum + scan.quantity, 0) >= 1;
  const reason = quantity === 1 ? 'ALREADY_CHECKED_IN' : 'NOT_CHECKED_IN';
  if (inside === (quantity === 1)) return refuse(reason, before.at(-1) ?? null);
  if (later) return refuse(reason, later);
  return { accepted: true };
}

function refuse(
  reason: ScanRefusal,
  deciding: RecordedScan | null,
): ScanDecision {
  return { accepted: false, reason, deciding };
}

/** What a refused scan's 409 says, naming the deciding scan and when it was made. */
export function refusalMessage(
  ticketId: string,
  decision: Extract<ScanDecision, { accepted: false }>,
  at: number,
  voidedAt: number | null,
): string {
  const { reason, deciding } = decision;
  if (reason === 'TICKET_VOID') {
    return `${ticketId} was voided at ${voidedAt}: only a check-in made before then (an offline scan's check_in_at) can be recorded`;
  }
  const scanned = (scan: RecordedScan) =>
    `${idOf(RESOURCE.checkIn, scan.id)}, scanned at ${scan.checkInAt}`;
  if (deciding === null) {
    return `${ticketId} is not checked in: it has no check-in to check out of`;
  }
  if (deciding.checkInAt > at) {
    return reason === 'ALREADY_CHECKED_IN'
      ? `${ticketId} was checked in later (${scanned(deciding)}): a check-in at ${at} would be a second entry`
      : `${ticketId} was checked out later (${scanned(deciding)}): a check-out at ${at} would be a second exit`;
  }
  return reason === 'ALREADY_CHECKED_IN'
    ? `${ticketId} is already checked in (${scanned(deciding)})`
    : `${ticketId} is not checked in: it was checked out (${scanned(deciding)})`;
}
