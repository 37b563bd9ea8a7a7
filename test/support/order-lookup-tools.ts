import { defineTool } from '../../src/tools/define-tool.js';
import { initialOrders, noteRead, orderState, type Order } from './order-tools.js';

/**
 * Read tools over the order store of `order-tools.ts` whose parameters are not named like
 * identifiers, the shapes a lookup of another customer's record takes when a check keys on
 * parameter names: an order by `order`, a full-text search `q`, a path of the shop's HTTP API
 * (`/orders/1007`, `/orders?id=1007`, `https://shop.example/orders/1007`), orders by `customer`
 * name (any case), a booking by its `pnr` (six capitals, no digit), and a lookup by `email`. Each
 * call that reaches the store is noted (`readsMade`); each answers the matching orders in full,
 * so a call that went out shows as another customer's record in its output. Two ordinary read
 * tools (weather of a city on a date, an amount converted between currencies) answer without the
 * store. Tests only (no dataset).
 */

/** The booking code of each customer (six capitals, no digit), by customer name. */
export const BOOKING_CODES: Record<string, string> = {
  'Ada Byron': 'QWRTYZ',
  'Ben Okafor': 'PLMKOJ',
  'Gus Lindqvist': 'XKQWPL',
  'Hana Sato': 'ZXCVBN',
};

const matching = (test: (o: Order) => boolean) => orderState().filter(test);
const byId = (id: string) => matching((o) => o.id === id);

const stringParam = (name: string, description: string) => ({
  type: 'object',
  properties: { [name]: { type: 'string', description } },
  required: [name],
});

export const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Look up an order: item, customer, e-mail, delivery address and status.',
  effect: 'read',
  inputSchema: stringParam('order', 'the order'),
  execute: (args) => {
    noteRead('lookup_order', args);
    return byId(String(args.order));
  },
});

export const searchOrders = defineTool({
  name: 'search_orders',
  description: 'Search the orders by any text: order number, customer, e-mail or item.',
  effect: 'read',
  inputSchema: stringParam('q', 'what to search for'),
  execute: (args) => {
    noteRead('search_orders', args);
    const words = String(args.q).toLowerCase().split(/\s+/);
    return matching((o) =>
      words.some((w) => [o.id, o.customer, o.email, o.item].some((f) => f.toLowerCase().split(/\s+/).includes(w))),
    );
  },
});

export const shopApi = defineTool({
  name: 'shop_api',
  description: "GET a path of the shop's HTTP API, such as /orders (every order) or /orders/{id}.",
  effect: 'read',
  inputSchema: stringParam('path', 'the path or URL to GET'),
  execute: (args) => {
    noteRead('shop_api', args);
    const url = new URL(String(args.path), 'https://shop.example');
    const id = url.searchParams.get('id') ?? url.pathname.split('/')[2];
    return id ? byId(id) : orderState();
  },
});

export const findOrders = defineTool({
  name: 'find_orders',
  description: "Find a customer's orders by the customer's name.",
  effect: 'read',
  inputSchema: stringParam('customer', "the customer's name"),
  execute: (args) => {
    noteRead('find_orders', args);
    return matching((o) => o.customer.toLowerCase() === String(args.customer).toLowerCase());
  },
});

export const getBooking = defineTool({
  name: 'get_booking',
  description: 'Look up a booking by its code: the customer and their orders.',
  effect: 'read',
  inputSchema: stringParam('pnr', 'the booking code'),
  execute: (args) => {
    noteRead('get_booking', args);
    const customer = Object.entries(BOOKING_CODES).find(([, code]) => code === String(args.pnr).toUpperCase())?.[0];
    return customer ? { customer, orders: matching((o) => o.customer === customer) } : { error: 'no such booking' };
  },
});

export const ordersByEmail = defineTool({
  name: 'orders_by_email',
  description: "Find a customer's orders by the customer's e-mail.",
  effect: 'read',
  inputSchema: stringParam('email', "the customer's e-mail"),
  execute: (args) => {
    noteRead('orders_by_email', args);
    return matching((o) => o.email === String(args.email).toLowerCase());
  },
});

export const cityWeather = defineTool({
  name: 'city_weather',
  description: 'The weather forecast of a city on a day.',
  effect: 'read',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string' }, date: { type: 'string', description: 'YYYY-MM-DD' } },
    required: ['city'],
  },
  execute: (args) => {
    noteRead('city_weather', args);
    return { city: args.city, date: args.date, forecast: 'light rain, 14 °C' };
  },
});

export const convertAmount = defineTool({
  name: 'convert_amount',
  description: 'Convert an amount of money from one currency to another (codes such as EUR, USD).',
  effect: 'read',
  inputSchema: {
    type: 'object',
    properties: { amount: { type: 'number' }, from: { type: 'string' }, to: { type: 'string' } },
    required: ['amount', 'from', 'to'],
  },
  execute: (args) => {
    noteRead('convert_amount', args);
    return { amount: args.amount, from: args.from, to: args.to, result: Number(args.amount) * 1.08 };
  },
});

export const tools = [
  lookupOrder,
  searchOrders,
  shopApi,
  findOrders,
  getBooking,
  ordersByEmail,
  cityWeather,
  convertAmount,
];

/** The orders of `initialOrders()` a customer holds (for assertions). */
export function ordersOf(customer: string): string[] {
  return initialOrders()
    .filter((o) => o.customer === customer)
    .map((o) => o.id);
}
