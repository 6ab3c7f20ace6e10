/** The kinds of payment method (docs/API.md, "Payment method"): what an order was paid with, what an event accepts. */
export const PAYMENT_METHOD_TYPES = [
  'stripe',
  'paypal',
  'offline',
  'operator',
  'no_cost',
] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];
