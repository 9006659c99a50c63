/**
 * The snippets that send a transactional template (curl, JavaScript fetch, Python requests), filled with
 * the template's merge variables and a placeholder key: one pure function, used by the template's page.
 */

/** The placeholder the snippets read the API key from (an environment variable). */
export const API_KEY_PLACEHOLDER = '$CONSOLE_API_KEY';

export interface SnippetInput {
  gatewayUrl: string;
  templateId: string;
  /** Dotted paths ('order.id'), as GET /v1/transactional/templates/{id} lists them. */
  variables: readonly string[];
}

export interface Snippets {
  curl: string;
  javascript: string;
  python: string;
}

type Data = { [key: string]: string | Data };

/** `data` with every variable at its path, each holding a placeholder naming it. */
export function sampleData(variables: readonly string[]): Data {
  const data: Data = {};
  for (const variable of variables) {
    const keys = variable.split('.');
    let at: Data = data;
    keys.forEach((key, i) => {
      if (i === keys.length - 1) {
        if (!(key in at)) at[key] = `<${variable}>`;
        return;
      }
      const next = at[key];
      if (typeof next === 'object') at = next;
      else at = at[key] = {};
    });
  }
  return data;
}

const indent = (text: string, spaces: number) => text.replace(/\n/g, `\n${' '.repeat(spaces)}`);

export function buildSnippets({ gatewayUrl, templateId, variables }: SnippetInput): Snippets {
  const url = `${gatewayUrl.replace(/\/+$/, '')}/v1/transactional/send`;
  const body = { template_id: templateId, to: 'recipient@example.com', data: sampleData(variables) };
  const json = JSON.stringify(body, null, 2);
  const curl = [
    `curl -X POST '${url}' \\`,
    `  -H "Authorization: Bearer ${API_KEY_PLACEHOLDER}" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H "Idempotency-Key: $(uuidgen)" \\`,
    `  -d '${json.replace(/'/g, `'\\''`)}'`,
  ].join('\n');
  const javascript = [
    `const response = await fetch('${url}', {`,
    `  method: 'POST',`,
    `  headers: {`,
    `    Authorization: \`Bearer \${process.env.CONSOLE_API_KEY}\`,`,
    `    'Content-Type': 'application/json',`,
    `    'Idempotency-Key': crypto.randomUUID(),`,
    `  },`,
    `  body: JSON.stringify(${indent(json, 2)}),`,
    `});`,
    `const { message_id } = await response.json();`,
  ].join('\n');
  const python = [
    `import os, uuid, requests`,
    ``,
    `response = requests.post(`,
    `    "${url}",`,
    `    headers={`,
    `        "Authorization": f"Bearer {os.environ['CONSOLE_API_KEY']}",`,
    `        "Idempotency-Key": str(uuid.uuid4()),`,
    `    },`,
    `    json=${indent(json, 4)},`,
    `)`,
    `message_id = response.json()["message_id"]`,
  ].join('\n');
  return { curl, javascript, python };
}
