import request from 'supertest';
import {
  DEMO_BOX_OFFICES,
  DEMO_ORDER_COUNT,
  seedDemoData,
} from '../seeds/demo-data';
import {
  type TestApp,
  basicAuth,
  createTestApp,
} from './utils/create-test-app';

// The requests Ticket Tailor's two data connectors send, replayed against the demo (what
// `npm start` seeds) with each demo key: every request answers 200, every stream has records,
// and every record's primary key is there and unique (docs/API.md, "Connectors").
//
// Airbyte: airbytehq/airbyte, airbyte-integrations/connectors/source-tickettailor/manifest.yaml
// (commit 0830272c36dbba156394bd9c30e460ee5b88c77e). Its ten streams, in the manifest's order,
// each a DefaultPaginator with `limit=100` (page_size_option) and `starting_after=<the last
// record's id>` (page_token_option), stopping when `links.next` is null; `events`, `waitlists`
// and `vouchers_codes` are substreams, one partition per parent record's id; the connection
// check reads `events_series`.
//
// PostHog: PostHog/posthog, products/warehouse_sources/backend/temporal/data_imports/sources/
// tickettailor/settings.py (TICKET_TAILOR_ENDPOINTS, commit 3b955c52071e7146b88d31011193c51e6eb8de8a)
// and tickettailor.py (TicketTailorPaginator and validate_credentials, commit
// 19194eff159b62e33eb703f45b34ec7cf625a1ec). Ten endpoints under /v1, each `limit=100`, then
// `starting_after=<the last item's id>` while `links.next` is set and the page has items; the
// key is checked with `/v1/events?limit=1`. Its two membership tables are not modelled here:
// their paths answer 404 NOT_FOUND.

interface Stream {
  name: string;
  path: string;
  /** A substream: its path holds the parent's id, one partition per record of `parent`. */
  parent?: { stream: string; partitionField: string };
}

/** The manifest's streams (`streams:`), their paths (`requester.path`) and partition routers. */
const AIRBYTE_STREAMS: Stream[] = [
  { name: 'events_series', path: '/event_series' },
  {
    name: 'events',
    path: '/event_series/{{ stream_partition.event_series_id }}/events',
    parent: { stream: 'events_series', partitionField: 'event_series_id' },
  },
  { name: 'products', path: '/products' },
  { name: 'vouchers', path: '/vouchers' },
  { name: 'discounts', path: '/discounts' },
  { name: 'check_ins', path: '/check_ins' },
  { name: 'issued_tickets', path: '/issued_tickets' },
  { name: 'orders', path: '/orders' },
  {
    name: 'waitlists',
    path: '/event_series/{{ stream_partition.event_series_id }}/waitlist_signups',
    parent: { stream: 'events_series', partitionField: 'event_series_id' },
  },
  {
    name: 'vouchers_codes',
    path: '/vouchers/{{ stream_partition.voucher_id }}/codes',
    parent: { stream: 'vouchers', partitionField: 'voucher_id' },
  },
];
/** The manifest's `url_base`, here the service's. */
const AIRBYTE_URL_BASE = '/v1';

/** TICKET_TAILOR_ENDPOINTS without its two membership tables. */
const POSTHOG_ENDPOINTS = [
  '/v1/events',
  '/v1/event_series',
  '/v1/orders',
  '/v1/issued_tickets',
  '/v1/check_ins',
  '/v1/discounts',
  '/v1/products',
  '/v1/vouchers',
];
const POSTHOG_MEMBERSHIP_ENDPOINTS = [
  '/v1/issued_memberships',
  '/v1/membership_types',
];

type Record = { id: string } & { [field: string]: unknown };
interface Page {
  data: Record[];
  links: { next: string | null; previous: string | null };
}

describe.each(DEMO_BOX_OFFICES.map((office) => [office.name, office.apiKey]))(
  'the connectors’ requests, replayed on the demo with the key of %s',
  (_name, key) => {
    let t: TestApp;
    /** Every request sent, with its status. */
    const sent: [string, number][] = [];

    beforeAll(async () => {
      t = await createTestApp({ RATE_LIMIT_MAX: '1000000' });
      await seedDemoData(t.dataSource, {
        orders: DEMO_ORDER_COUNT,
        seed: 1,
        reset: false,
      });
      // Among the demo's tickets, one issued with no order (POST /v1/issued_tickets), which the
      // streams read like any other.
      const [type] = await t.dataSource.query<
        { id: number; event_id: number }[]
      >(
        `SELECT tt.id, tt.event_id FROM ticket_types tt JOIN events e ON e.id = tt.event_id
          WHERE e.box_office_id = 1
            AND tt.quantity_total - tt.quantity_issued - tt.quantity_held > 0
          ORDER BY tt.id LIMIT 1`,
      );
      const issued = await request(t.server)
        .post('/v1/issued_tickets')
        .set('Authorization', basicAuth(DEMO_BOX_OFFICES[0].apiKey))
        .send({
          event_id: `ev_${type.event_id}`,
          ticket_type_id: `tt_${type.id}`,
          full_name: 'Guest List',
          email: 'guest@example.com',
        });
      expect(issued.status).toBe(201);
    });

    afterAll(() => t?.close());

    const get = async (path: string): Promise<Page> => {
      const res = await request(t.server)
        .get(path)
        .set('Authorization', basicAuth(key))
        .set('Accept', 'application/json');
      sent.push([path, res.status]);
      return res.body as Page;
    };

    /** The records of one stream's partition, as the manifest's paginator walks it. */
    async function airbytePartition(path: string): Promise<Record[]> {
      const records: Record[] = [];
      let page = await get(`${AIRBYTE_URL_BASE}${path}?limit=100`);
      records.push(...page.data);
      // stop_condition: "{{ response.links.next is none }}"
      while (page.links.next !== null) {
        const last = page.data[page.data.length - 1];
        page = await get(
          `${AIRBYTE_URL_BASE}${path}?limit=100&starting_after=${last.id}`,
        );
        records.push(...page.data);
      }
      return records;
    }

    it('answers Airbyte’s ten streams, each with records, every request 200', async () => {
      sent.length = 0;
      // The connection check (CheckStream: events_series), then each stream in turn.
      expect(
        (await get(`${AIRBYTE_URL_BASE}/event_series?limit=100`)).data,
      ).not.toHaveLength(0);
      const records = new Map<string, Record[]>();
      for (const stream of AIRBYTE_STREAMS) {
        const found: Record[] = [];
        if (stream.parent) {
          for (const parent of records.get(stream.parent.stream)!) {
            const path = stream.path.replace(
              `{{ stream_partition.${stream.parent.partitionField} }}`,
              parent.id,
            );
            found.push(...(await airbytePartition(path)));
          }
        } else {
          found.push(...(await airbytePartition(stream.path)));
        }
        records.set(stream.name, found);
      }
      expect(sent.filter(([, status]) => status !== 200)).toEqual([]);
      for (const { name } of AIRBYTE_STREAMS) {
        const ids = records.get(name)!.map((record) => record.id);
        // hasRecords, primaryKeysArePresent, primaryKeysAreUnique
        expect([name, ids.length > 0]).toEqual([name, true]);
        expect([name, ids.every((id) => typeof id === 'string')]).toEqual([
          name,
          true,
        ]);
        expect([name, new Set(ids).size]).toEqual([name, ids.length]);
      }
    });

    it('answers PostHog’s eight non-membership endpoints, each with records, every request 200', async () => {
      sent.length = 0;
      // validate_credentials probes the key once.
      await get('/v1/events?limit=1');
      for (const endpoint of POSTHOG_ENDPOINTS) {
        const ids: string[] = [];
        let page = await get(`${endpoint}?limit=100`);
        ids.push(...page.data.map((record) => record.id));
        // TicketTailorPaginator.update_state: on while links.next is set and the page had rows.
        while (page.links.next && page.data.length > 0) {
          const cursor = page.data[page.data.length - 1].id;
          page = await get(`${endpoint}?limit=100&starting_after=${cursor}`);
          ids.push(...page.data.map((record) => record.id));
        }
        expect([endpoint, ids.length > 0]).toEqual([endpoint, true]);
        expect([endpoint, new Set(ids).size]).toEqual([endpoint, ids.length]);
      }
      expect(sent.filter(([, status]) => status !== 200)).toEqual([]);
    });

    it.each(POSTHOG_MEMBERSHIP_ENDPOINTS)(
      '%s, a membership table this service does not model, is not found',
      async (endpoint) => {
        const res = await request(t.server)
          .get(`${endpoint}?limit=100`)
          .set('Authorization', basicAuth(key));
        expect(res.status).toBe(404);
        expect(res.body).toEqual({
          status: 404,
          error_code: 'NOT_FOUND',
          message: `No resource at GET ${endpoint}`,
        });
      },
    );
  },
);
