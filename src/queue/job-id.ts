import { createHash } from 'node:crypto';

/** The job id is a function of the delivery id, so a redelivery maps onto the existing job. */
export function jobIdForDelivery(deliveryId: string): string {
  const h = createHash('sha256').update(`delivery:${deliveryId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
