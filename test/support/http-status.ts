import { request } from 'node:http';

/** The status of a plain GET (no keep-alive agent), once its body has been read. */
export function getStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}
