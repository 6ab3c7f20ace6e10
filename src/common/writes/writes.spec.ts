import { QueryFailedError } from 'typeorm';
import { refusedWrite } from './writes';

describe('refusedWrite', () => {
  const failed = (code: string) =>
    new QueryFailedError(
      'UPDATE …',
      [],
      Object.assign(new Error(code), { code }),
    );

  it.each(['40P01', '40001', '55P03'])(
    'answers PostgreSQL refusal %s, left after the retries, 503 with Retry-After',
    (code) => {
      const error = refusedWrite(failed(code));
      expect(error?.getStatus()).toBe(503);
      expect(error?.code).toBe('SERVICE_UNAVAILABLE');
      expect(error?.headers).toEqual({ 'Retry-After': '1' });
    },
  );

  it('leaves every other error to the exception filter', () => {
    expect(refusedWrite(failed('23505'))).toBeNull();
    expect(refusedWrite(new Error('bug'))).toBeNull();
  });
});
