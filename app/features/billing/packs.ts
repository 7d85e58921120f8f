// Credit packs: what each costs and gives. Defined on the server (CREDIT_PACKS); the page only shows them.

export type CreditPack = {
  /** The pack's id in forms and in the Checkout Session's metadata: its credit count, e.g. "150". */
  id: string;
  credits: number;
  /** Price in centavos (BRL minor unit). */
  priceCents: number;
};

export const DEFAULT_CREDIT_PACKS = "50:990,150:2490,400:5990";
export const CURRENCY = "brl";

/** `credits:centavos` pairs, comma-separated (env.ts has already checked the format). Sorted by size. */
export function parseCreditPacks(setting: string | undefined): CreditPack[] {
  const packs = new Map<string, CreditPack>();
  for (const entry of (setting ?? DEFAULT_CREDIT_PACKS).split(",")) {
    const [credits, price] = entry.split(":").map((part) => Number.parseInt(part.trim(), 10));
    if (!credits || !price || credits <= 0 || price <= 0) continue;
    packs.set(String(credits), { id: String(credits), credits, priceCents: price });
  }
  return [...packs.values()].sort((a, b) => a.credits - b.credits);
}

// Built on first use: a page that never shows a price never loads the browser's ICU data for it.
let brl: Intl.NumberFormat | undefined;

/** "R$ 24,90" */
export function formatBRL(cents: number): string {
  brl ??= new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });
  return brl.format(cents / 100).replace(/\u00a0/g, " ");
}

export const BILLING_TEXT = {
  title: "Comprar créditos",
  buy: "Comprar",
  working: "Processando...",
  checkoutFailed: "Erro ao processar pagamento. Tente novamente.",
  noCheckoutUrl: "No checkout URL returned",
  unavailable: "Compras de créditos indisponíveis no momento.",
  unavailableDetail: "Os pagamentos ainda não foram configurados. Seus créditos mensais continuam valendo.",
  cancelled: "Pagamento cancelado",
  cancelledDetail: "Nenhuma cobrança foi feita. Escolha um pacote quando quiser.",
  added: "Créditos adicionados",
  processing: "Pagamento em processamento",
  processingDetail: "Os créditos entram assim que o pagamento (Pix) for confirmado.",
  notCompleted: "Pagamento não concluído",
  notCompletedDetail: "Nenhum crédito foi adicionado. Tente novamente.",
  tooMany: "Muitas tentativas",
} as const;
