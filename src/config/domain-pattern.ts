import * as z from 'zod';

/**
 * A setup egress allow-list entry (`network.allow`, GREENFIX_SETUP_ALLOW): an exact domain name
 * (`registry.npmjs.org`) or `*.` and a domain (`*.pythonhosted.org`: its subdomains, not itself).
 * Never an IP address: the last label must start with a letter.
 */
export const DOMAIN_PATTERN = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/i;

export const DOMAIN_PATTERN_HINT = 'a domain name such as registry.npmjs.org, or *. and a domain such as *.pythonhosted.org';

export const DomainPatternSchema = z.string().max(253).regex(DOMAIN_PATTERN, { message: `must be ${DOMAIN_PATTERN_HINT}` });

/** GREENFIX_SETUP_ALLOW: comma- or whitespace-separated patterns. */
export function splitPatterns(value: string): string[] {
  return value.split(/[\s,]+/).filter(Boolean);
}

export const SetupAllowSchema = z.string().superRefine((value, ctx) => {
  splitPatterns(value).forEach((pattern, i) => {
    if (!DOMAIN_PATTERN.test(pattern)) ctx.addIssue({ code: 'custom', message: `entry ${i + 1} must be ${DOMAIN_PATTERN_HINT} (comma-separated)` });
  });
});
