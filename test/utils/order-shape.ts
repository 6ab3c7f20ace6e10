/**
 * Checks orders and issued tickets whose values are not known one by one: their shape is the
 * document's schema (openapi.json: every field present, of its type, null only where allowed),
 * which a unit spec ties to the field tables; the rules of docs/API.md that relate fields are
 * checked here.
 */
import { schemaProblems } from './openapi-contract';

/** An issued ticket's shape: the document's IssuedTicket schema. */
export function expectIssuedTicketShape(ticket: unknown) {
  expect(schemaProblems('IssuedTicket', ticket)).toEqual([]);
}

/**
 * Checks every order's shape and the Order invariants of docs/API.md (total = subtotal + tax =
 * the sum of the line items' totals; void ⇔ voided_at; tickets belong to their order and its
 * event; created_at ≤ updated_at, on the order and on each ticket).
 */
export function expectWellFormedOrder(order: Record<string, unknown>) {
  expect(schemaProblems('Order', order)).toEqual([]);
  const o = order as unknown as {
    id: string;
    buyer_details: { email: string };
    created_at: number;
    updated_at: number;
    event_summary: { id: string };
    issued_tickets: Record<string, unknown>[];
    line_items: { total: number }[];
    subtotal: number;
    tax: number;
    total: number;
  };
  expect(o.created_at).toBeLessThanOrEqual(o.updated_at);
  expect(o.total).toBe(o.subtotal + o.tax);
  expect(o.line_items.reduce((sum, li) => sum + li.total, 0)).toBe(o.total);
  for (const t of o.issued_tickets) {
    expect(t.order_id).toBe(o.id);
    expect(t.event_id).toBe(o.event_summary.id);
    expect(t.email).toBe(o.buyer_details.email);
    expect(t.status === 'void').toBe(t.voided_at !== null);
    expect(t.created_at as number).toBeLessThanOrEqual(t.updated_at as number);
  }
}
