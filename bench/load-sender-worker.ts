import { parentPort, workerData } from 'node:worker_threads';
import type { Delivery } from './deliveries.js';
import { sendPaced } from './paced-sender.js';

/** Worker-thread entry of bench/load.ts: the paced sender on an event loop the server does not share. */
const { url, deliveries, perSecond } = workerData as { url: string; deliveries: Delivery[]; perSecond: number };
parentPort?.postMessage(await sendPaced(url, deliveries, perSecond));
