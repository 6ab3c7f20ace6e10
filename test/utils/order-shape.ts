/**
 * The shape every Order resource has (docs/API.md, Resources: Order): every field present, with
 * its documented type, null only where allowed. For checking many orders whose values are not
 * known.
 */
import { dateObject, integer, nullOr, prefixedId } from './shape-matchers';

const customQuestion = {
  question: expect.any(String),
  answer: nullOr(expect.any(String)),
};

export function orderShape() {
  return {
    object: 'order',
    id: prefixedId('or'),
    buyer_details: {
      address: {
        address_1: expect.any(String),
        address_2: nullOr(expect.any(String)),
        address_3: nullOr(expect.any(String)),
        postal_code: nullOr(expect.any(String)),
      },
      custom_questions: expect.any(Array),
      email: expect.any(String),
      name: expect.any(String),
      phone: nullOr(expect.any(String)),
    },
    created_at: integer,
    currency: { code: expect.any(String), base_multiplier: integer },
    event_summary: {
      id: prefixedId('ev'),
      name: expect.any(String),
      start_date: dateObject,
      end_date: dateObject,
    },
    issued_tickets: expect.any(Array),
    line_items: expect.any(Array),
    payment_method: {
      external_id: nullOr(expect.any(String)),
      id: nullOr(prefixedId('pm')),
      type: expect.stringMatching(/^(stripe|paypal|offline|operator|no_cost)$/),
      name: nullOr(expect.any(String)),
      instructions: nullOr(expect.any(String)),
    },
    refund_amount: integer,
    status: expect.stringMatching(/^(completed|pending|cancelled)$/),
    status_message: nullOr(expect.any(String)),
    subtotal: integer,
    tax: integer,
    total: integer,
    txn_id: nullOr(expect.any(String)),
    updated_at: integer,
  };
}

export function issuedTicketShape() {
  return {
    object: 'issued_ticket',
    id: prefixedId('it'),
    barcode: expect.any(String),
    barcode_url: expect.any(String),
    created_at: integer,
    custom_questions: expect.any(Array),
    description: expect.any(String),
    email: expect.any(String),
    event_id: prefixedId('ev'),
    full_name: nullOr(expect.any(String)),
    first_name: nullOr(expect.any(String)),
    last_name: nullOr(expect.any(String)),
    reservation: nullOr(expect.any(String)),
    status: expect.stringMatching(/^(valid|void)$/),
    updated_at: integer,
    voided_at: nullOr(integer),
    order_id: prefixedId('or'),
    qr_code_url: expect.any(String),
    ticket_type_id: nullOr(prefixedId('tt')),
    event_series_id: prefixedId('es'),
    checked_in: expect.stringMatching(/^(true|false)$/),
  };
}

export function lineItemShape() {
  return {
    object: 'line_item',
    id: prefixedId('li'),
    booking_fee: integer,
    description: expect.any(String),
    type: expect.stringMatching(
      /^(ticket|transaction_charge|void|tax|gift_card|donation)$/,
    ),
    total: integer,
    value: integer,
    quantity: integer,
  };
}

export { customQuestion };

/**
 * Checks every order's shape and the Order invariants of docs/API.md (total = subtotal + tax =
 * the sum of the line items' totals; void ⇔ voided_at; tickets belong to their order and its
 * event; created_at ≤ updated_at, which only issued tickets carry).
 */
export function expectWellFormedOrder(order: Record<string, unknown>) {
  expect(order).toEqual(orderShape());
  const o = order as unknown as {
    id: string;
    buyer_details: { email: string; custom_questions: unknown[] };
    event_summary: { id: string };
    issued_tickets: Record<string, unknown>[];
    line_items: { total: number }[];
    subtotal: number;
    tax: number;
    total: number;
  };
  for (const q of o.buyer_details.custom_questions)
    expect(q).toEqual(customQuestion);
  expect(o.total).toBe(o.subtotal + o.tax);
  expect(o.line_items.reduce((sum, li) => sum + li.total, 0)).toBe(o.total);
  for (const li of o.line_items) expect(li).toEqual(lineItemShape());
  for (const t of o.issued_tickets) {
    expect(t).toEqual(issuedTicketShape());
    expect(t.order_id).toBe(o.id);
    expect(t.event_id).toBe(o.event_summary.id);
    expect(t.email).toBe(o.buyer_details.email);
    expect(t.status === 'void').toBe(t.voided_at !== null);
    expect(t.created_at as number).toBeLessThanOrEqual(t.updated_at as number);
    for (const q of t.custom_questions as unknown[])
      expect(q).toEqual(customQuestion);
  }
}
