// Preloaded (`node --require`) into one server process by webhook-clocks.multi-spec.ts: that
// process's clock (Date.now(), new Date()) runs TEST_CLOCK_OFFSET_MS ahead of the machine's, as
// an instance on a host whose clock drifted would, while the database's clock stays right.
const offset = Number(process.env.TEST_CLOCK_OFFSET_MS);
if (!Number.isFinite(offset)) {
  throw new Error('TEST_CLOCK_OFFSET_MS must be a number of milliseconds');
}
const RealDate = Date;
class DriftedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...args);
  }
  static now() {
    return RealDate.now() + offset;
  }
}
globalThis.Date = DriftedDate;
