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

// What every answer carries is required in the document, so strict TypeScript reads it without
// a check: the slots answer and its slots, a quick-search hit, a cart and its payment request.
type SlotsAnswer = paths["/v3/available_slots"]["get"]["responses"][200]["content"]["application/json"];
type AvailableSlot = components["schemas"]["AvailableSlot"];
type QuickSearchHit = components["schemas"]["ClientQuickSearchResult"];
type Cart = components["schemas"]["Cart"];
type PaymentRequest = components["schemas"]["PaymentRequest"];

export function slotLabels(a: SlotsAnswer): string[] {
  const m = a.data.metadata;
  return a.data.slots.map((s: AvailableSlot) =>
    `${s.date} ${s.start_time}-${s.end_time} ${s.provider_name} (${s.starts_at}, ${m.duration} min, ${m.date}..${m.end_date}, ${m.slots_count})`);
}

export function hitLabel(h: QuickSearchHit): string {
  return `${h.id} ${h.full_name.trim()}` + (h.email === null ? "" : ` <${h.email}>`);
}

export function checkoutURL(c: Cart): string | null {
  const names = c.items.map((i) => `${i.quantity} × ${i.item_name ?? i.item_id} = ${i.total_price}`);
  return names.length > 0 && c.payment_request !== null ? c.payment_request.params.checkout_url : null;
}

export function expires(p: PaymentRequest): string {
  return `${p.id} ${p.status} ${p.amount} until ${p.params.expires_at ?? "never"}`;
}
