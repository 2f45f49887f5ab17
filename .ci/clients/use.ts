// Compiled by .ci/clients.sh against the types openapi-typescript generates from the served
// document: a client written the way integrators write them, which must type-check strictly.
import type { components, operations, paths, webhooks } from "./api";

type Product = components["schemas"]["Product"];
type Booking = components["schemas"]["Booking"];
type BookingEvent = components["schemas"]["BookingEvent"];
type ProductList = paths["/v3/products"]["get"]["responses"][200]["content"]["application/json"];
type ListBookingsQuery = NonNullable<operations["listBookings"]["parameters"]["query"]>;
type BookingUpdated = webhooks["booking.updated"]["post"]["requestBody"]["content"]["application/json"];

export function inStock(p: Product): boolean {
  return p.active && (p.stock === null || p.stock > 0);
}

export function names(list: ProductList): string[] {
  return list.data.map((p) => p.name + (p.sku === null ? "" : ` (${p.sku})`));
}

export const byProvider: ListBookingsQuery = { provider_id: 3, start_date: "2026-11-24" };

export function cancelled(e: BookingUpdated): boolean {
  const data: BookingEvent = e.data;
  return data.status_id === 5;
}

export function start(b: Booking): string {
  return b.start_time;
}
