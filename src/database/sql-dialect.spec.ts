import { FOLD_FUNCTION, postgresDialect, sqliteDialect } from './sql-dialect';

describe('lower case for case-insensitive matching', () => {
  const { fold } = FOLD_FUNCTION;

  it('folds every script, as PostgreSQL’s lower() does under a UTF-8 ctype', () => {
    expect(fold('SÖDERMALM Salón NØRREBRO')).toBe('södermalm salón nørrebro');
    expect(fold('ΚΑΦΕ')).toBe('καφε');
  });

  it('folds each character on its own: a final Σ is σ, so ΟΣ is found in ΟΣΑ', () => {
    expect(fold('ΟΣ')).toBe('οσ');
    expect((fold('ΟΣΑ') as string).includes(fold('ΟΣ') as string)).toBe(true);
  });

  it('leaves what is not text as it is', () => {
    expect(fold(null)).toBeNull();
    expect(fold(42)).toBe(42);
  });

  it('is spelled per dialect', () => {
    expect(sqliteDialect.lower('ev.name')).toBe('unicode_lower(ev.name)');
    expect(postgresDialect.lower('ev.name')).toBe('lower(ev.name)');
  });
});
