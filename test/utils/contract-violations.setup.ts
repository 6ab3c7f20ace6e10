import { describeViolations, takeViolations } from './openapi-contract';

// Fails a test whose requests got responses that break openapi.json (test/utils/openapi-contract.ts
// checks every response of the server createTestApp returns), and the file for those sent
// outside any test (beforeAll, afterAll).

const failOnViolations = () => {
  const found = takeViolations();
  if (found.length > 0) throw new Error(describeViolations(found));
};

afterEach(failOnViolations);
afterAll(failOnViolations);
