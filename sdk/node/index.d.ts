// Type declarations of @stablecashier/sdk. Amounts are decimal strings.

export declare const VERSION: string;

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  secretKey: string;
  /** Brand prefix of the header names (default "Service"). */
  headerPrefix?: string;
  /** Per request, in milliseconds (default 30000). */
  timeout?: number;
  /** Retries of a 503 answer, after its Retry-After (default 2). */
  maxRetries?: number;
  /** Longest Retry-After honoured, in milliseconds (default 30000). */
  maxRetryWait?: number;
  /** Sent as <P>-Rec_Window, in milliseconds (the service's default is 30000, its maximum 60000). */
  recvWindow?: number;
}

/** A JSON object with the API's own field names. */
export type Fields = Record<string, any>;

export interface CollectionRequest { cashierId: string; orderNo: string; amount: string; symbol: string; chainId?: string; redirectUrl?: string; custNo?: string; [field: string]: any }
export interface PayoutRequest { contractId: string; orderNo: string; recipient: string; amount: string; symbol: string; payoutType?: number; fromAddress?: string; remark?: string; chainId?: string; custNo?: string; [field: string]: any }
export interface BatchOrder { orderNo: string; recipient: string; amount: string; symbol: string; remark?: string }
export interface BatchPayoutRequest { contractId: string; orders: BatchOrder[]; payoutType?: number; fromAddress?: string; [field: string]: any }
export interface RefundRequest { orderNo: string; refundNo: string; amount: string; address?: string; symbol?: string; reason?: string; [field: string]: any }
export interface ListQuery { startTime?: number; endTime?: number; status?: string; page?: number; pageSize?: number; contractId?: string }
export interface HoldingsQuery { contractId?: string; chainId?: string; symbol?: string }
export interface LedgerQuery extends HoldingsQuery { kind?: string; startTime?: number; endTime?: number; page?: number; pageSize?: number }

export declare class Client {
  constructor(opts: ClientOptions);
  createCollection(req: CollectionRequest): Promise<Fields>;
  getCollection(orderNo: string): Promise<Fields>;
  listCollections(query?: ListQuery): Promise<Fields>;
  cancelCollection(orderNo: string): Promise<Fields>;
  createPayout(req: PayoutRequest): Promise<Fields>;
  getPayout(orderNo: string): Promise<Fields>;
  createBatchPayout(req: BatchPayoutRequest): Promise<Fields>;
  listPayouts(query?: ListQuery): Promise<Fields>;
  createRefund(req: RefundRequest): Promise<Fields>;
  getRefund(refundNo: string): Promise<Fields>;
  cancelRefund(refundNo: string): Promise<Fields>;
  getBalance(query?: HoldingsQuery): Promise<Fields>;
  getLedger(query?: LedgerQuery): Promise<Fields>;
  getCashierInfo(cashierId: string): Promise<Fields>;
  listNetworks(): Promise<Fields[]>;
  listCoins(): Promise<Fields[]>;
}

export declare class StableCashierError extends Error {}

/** The service refused the request; code and message are the service's. */
export declare class APIError extends StableCashierError {
  code: string;
  status: number;
  trace: string;
}

/** A webhook that did not verify. */
export declare class SignatureError extends StableCashierError {}

export interface WebhookEvent extends Fields {
  eventId: string;
  /** payment, payout, refund or test */
  event: string;
  /** e.g. payment.success, refund.success: branch on it */
  eventType: string;
  orderNo?: string;
  status?: string;
  amount?: string;
  symbol?: string;
}

export type HeaderSource = Record<string, string | string[] | undefined> | Array<[string, string]> | { get(name: string): string | null; entries(): any };

export declare function verifyWebhook(
  rawBody: Uint8Array | string, // a Buffer is a Uint8Array
  headers: HeaderSource,
  keyOrKeys: string | string[],
  opts?: { tolerance?: number; headerPrefix?: string; now?: number },
): WebhookEvent;
