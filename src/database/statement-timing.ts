import type {
  AfterQueryEvent,
  BeforeQueryEvent,
  DataSource,
  EntitySubscriberInterface,
} from 'typeorm';

/** Takes how long one statement took, in seconds (failed ones included). */
export type StatementObserver = (seconds: number) => void;

const observers = new WeakMap<DataSource, StatementObserver>();

/**
 * Times every statement `dataSource` sends from now on: the readers' (rowReader, which asks
 * statementObserver) and TypeORM's own queries (a subscriber to its query events). Nothing is
 * timed on a data source nobody observes.
 */
export function timeStatements(
  dataSource: DataSource,
  observe: StatementObserver,
): void {
  observers.set(dataSource, observe);
  dataSource.subscribers.push(new QueryTimer(observe));
}

/** The observer of `dataSource`'s statements, if it is timed. */
export function statementObserver(
  dataSource: DataSource,
): StatementObserver | undefined {
  return observers.get(dataSource);
}

/**
 * TypeORM's query events, paired by their parameters array (the same object in both events of one
 * query) or, for a query without parameters, by its query runner (one query at a time). TypeORM's
 * own `executionTime` is in whole milliseconds, too coarse for statements that mostly take less.
 */
class QueryTimer implements EntitySubscriberInterface {
  private readonly started = new WeakMap<object, number>();

  constructor(private readonly observe: StatementObserver) {}

  beforeQuery(event: BeforeQueryEvent): void {
    this.started.set(keyOf(event), performance.now());
  }

  afterQuery(event: AfterQueryEvent): void {
    const key = keyOf(event);
    const start = this.started.get(key);
    if (start === undefined) return;
    this.started.delete(key);
    this.observe((performance.now() - start) / 1000);
  }
}

const keyOf = (event: BeforeQueryEvent): object =>
  event.parameters ?? event.queryRunner;
