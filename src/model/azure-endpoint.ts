/** The GA version greenfix was written against; a base URL's own `?api-version=` wins. */
export const DEFAULT_AZURE_API_VERSION = '2024-10-21';

/**
 * Azure OpenAI's form of the endpoint: `https://{resource}.openai.azure.com/openai/deployments/
 * {deployment}/chat/completions?api-version=…` with the key in an `api-key` header (the SDK's AzureOpenAI client sends both)
 * (https://learn.microsoft.com/azure/ai-services/openai/reference). OPENAI_BASE_URL may be the
 * resource (`https://r.openai.azure.com`: the deployment is GREENFIX_MODEL) or the deployment's
 * URL; either may carry `?api-version=`.
 */
export function azureEndpoint(baseURL: string, deployment: string): { baseURL: string; apiVersion: string } {
  const url = new URL(baseURL);
  const version = url.searchParams.get('api-version') ?? DEFAULT_AZURE_API_VERSION;
  url.search = '';
  let path = url.pathname.replace(/\/+$/, '');
  if (!/\/openai\/deployments\/[^/]+$/.test(path)) path = `${path.replace(/\/openai$/, '')}/openai/deployments/${encodeURIComponent(deployment)}`;
  url.pathname = path;
  return { baseURL: url.toString().replace(/\/$/, ''), apiVersion: version };
}
