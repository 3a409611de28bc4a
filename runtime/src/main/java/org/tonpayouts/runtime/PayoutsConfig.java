package org.tonpayouts.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;
import org.tonpayouts.runtime.caps.SpendCapList;
import org.tonpayouts.runtime.caps.SpendCaps;
import org.tonpayouts.runtime.jettons.JettonCatalog;
import org.tonpayouts.ton.api.ProviderPool;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.keys.SecretFiles;
import org.tonpayouts.ton.keys.WalletKey;
import org.tonpayouts.ton.keys.WalletSecrets;
import org.tonpayouts.ton.network.TonNetwork;
import org.tonpayouts.ton.wallet.Subwallets;

/**
 * The configuration of every payout process (streams-app and chain-poller): one key set, one
 * file, one environment namespace, validated once at start-up.
 *
 * <p>Values come from an optional properties file, overridden by environment variables named
 * after the key: {@code kafka.bootstrap.servers} is {@code PAYOUTS_KAFKA_BOOTSTRAP_SERVERS}.
 * The wallet secret is not a key here: it is read by {@code WalletSecrets} from its own
 * environment variables or file ({@link #WALLET_SECRET_FILE_CONFIG}), so it never sits in a
 * properties file next to ordinary settings. Every other secret (database password, TON API key,
 * admin token, verdict keys) is a key {@code K} given in the environment or, better, as the file
 * {@code K.file} ({@link #secret}); every secret file goes through {@link SecretFiles}, which
 * refuses one that group or others may read.
 */
public final class PayoutsConfig extends AbstractConfig {
  public static final String ENV_PREFIX = "PAYOUTS_";

  public static final String KAFKA_BOOTSTRAP_SERVERS_CONFIG = "kafka.bootstrap.servers";
  private static final String KAFKA_BOOTSTRAP_SERVERS_DOC = "Kafka bootstrap servers, host:port[,host:port].";

  public static final String STREAMS_APPLICATION_ID_CONFIG = "streams.application.id";
  private static final String STREAMS_APPLICATION_ID_DOC =
      "Kafka Streams application id of streams-app (consumer group, state and changelog prefix).";

  public static final String POLLER_APPLICATION_ID_CONFIG = "poller.application.id";
  private static final String POLLER_APPLICATION_ID_DOC = "Kafka Streams application id of chain-poller.";

  public static final String STREAMS_STATE_DIR_CONFIG = "streams.state.dir";
  private static final String STREAMS_STATE_DIR_DOC = "Directory for local state stores (RocksDB).";

  public static final String STREAMS_COMMIT_INTERVAL_MS_CONFIG = "streams.commit.interval.ms";
  private static final String STREAMS_COMMIT_INTERVAL_MS_DOC =
      "Exactly-once commit interval. Every Kafka hop of the payout loop waits for a commit before the"
          + " next process can read it, so this is spent several times per transfer; the 100 ms default of"
          + " exactly-once would eat half of a 400 ms block.";

  public static final String STREAMS_NUM_THREADS_CONFIG = "streams.num.threads";
  private static final String STREAMS_NUM_THREADS_DOC = "Stream threads per process.";

  public static final String POSTGRES_URL_CONFIG = "postgres.url";
  private static final String POSTGRES_URL_DOC = "JDBC URL of the ledger database.";
  public static final String POSTGRES_USER_CONFIG = "postgres.user";
  private static final String POSTGRES_USER_DOC = "Ledger database user.";
  public static final String POSTGRES_PASSWORD_CONFIG = "postgres.password";
  private static final String POSTGRES_PASSWORD_DOC =
      "Ledger database password; give it in the environment (PAYOUTS_POSTGRES_PASSWORD) or, better, as"
          + " postgres.password.file. Never logged.";

  public static final String TON_API_URL_CONFIG = "ton.api.url";
  private static final String TON_API_URL_DOC =
      "Base URL of the TON HTTP API v2 (toncenter, a self-hosted ton-http-api, or devnet); /api/v2/<method> is appended.";
  public static final String TON_API_KEY_CONFIG = "ton.api.key";
  private static final String TON_API_KEY_DOC =
      "API key, sent only in the X-API-Key header; give it in the environment (PAYOUTS_TON_API_KEY) or, better, as"
          + " ton.api.key.file. Empty (and no file): none.";
  public static final String TON_API_RPS_CONFIG = "ton.api.requests.per.second";
  private static final String TON_API_RPS_DOC =
      "Client-side rate limit of this process. toncenter allows 1/s without a key and 10 to 100/s with one; the"
          + " processes sharing a key split it (docs/operations.md: Scaling out).";
  public static final String TON_API_TIMEOUT_MS_CONFIG = "ton.api.timeout.ms";
  private static final String TON_API_TIMEOUT_MS_DOC = "Per-call timeout of TON API requests.";
  public static final String TON_API_MAX_IN_FLIGHT_CONFIG = "ton.api.max.in.flight";
  private static final String TON_API_MAX_IN_FLIGHT_DOC =
      "TON API requests this process keeps in flight at most, so also the HTTP connections it keeps open; the"
          + " others wait their turn in order. Unbounded, a thousand wallets' reads at once opened hundreds of"
          + " connections, which the server closed again past its idle limit (at 1,000 wallets on devnet: 165 new"
          + " connections a second).";
  public static final String TON_TESTNET_CONFIG = "ton.testnet";
  private static final String TON_TESTNET_DOC =
      "Show user-friendly addresses (the admin API's wallet view) in their testnet form. The form follows"
          + " ton.network: always the testnet form on testnet, never on mainnet (true there stops the process); this"
          + " key chooses it only on devnet.";

  public static final String WALLET_WORKCHAIN_CONFIG = "wallet.workchain";
  private static final String WALLET_WORKCHAIN_DOC = "Workchain of the payout wallets (0 basechain, -1 masterchain).";
  public static final String WALLET_SUBWALLET_MIN_CONFIG = "wallet.subwallet.min";
  private static final String WALLET_SUBWALLET_MIN_DOC = "Lowest subwallet_id that requests may use.";
  public static final String WALLET_SUBWALLET_MAX_CONFIG = "wallet.subwallet.max";
  private static final String WALLET_SUBWALLET_MAX_DOC = "Highest subwallet_id that requests may use.";
  public static final String WALLET_SECRET_FILE_CONFIG = "wallet.secret.file";
  private static final String WALLET_SECRET_FILE_DOC =
      "File holding the 24-word mnemonic or the 64-hex seed, readable by the service's user only (chmod 600)."
          + " Empty: read TON_WALLET_MNEMONIC_FILE or TON_WALLET_SEED_FILE (TON_WALLET_MNEMONIC and TON_WALLET_SEED_HEX"
          + " holding the secret itself only with wallet.secret.inline.allowed).";

  public static final String TRANSFER_TTL_SECONDS_CONFIG = "transfer.valid.until.ttl.seconds";
  private static final String TRANSFER_TTL_SECONDS_DOC =
      "valid_until of a signed message = the later of our time and the API node's time + this. Once the node's time"
          + " passed it (plus the clock-skew margin) with the wallet's seqno unmoved, the message can never apply, and"
          + " only then is the transfer signed again, with the same seqno.";
  public static final String TRANSFER_CLOCK_SKEW_SECONDS_CONFIG = "transfer.clock.skew.seconds";
  private static final String TRANSFER_CLOCK_SKEW_SECONDS_DOC =
      "Margin added to valid_until before a message counts as expired. Expiry is judged by the API node's own time"
          + " (sync_utime of the state it answers from), never by ours, so a lagging node delays an expiry and never"
          + " causes one; the margin covers the node's time against the validators'.";
  public static final String TRANSFER_SEQNO_TIMEOUT_MS_CONFIG = "transfer.seqno.fetch.timeout.ms";
  private static final String TRANSFER_SEQNO_TIMEOUT_MS_DOC =
      "How long one issuing round waits for fresh seqno reads and sends before leaving slow wallets for the next round.";
  public static final String TRANSFER_RESEND_AFTER_MS_CONFIG = "transfer.resend.after.ms";
  private static final String TRANSFER_RESEND_AFTER_MS_DOC =
      "A sent message without a verdict after this long (a few blocks) is sent again, the same BOC (the wallet"
          + " applies it at most once): external messages can be lost on their way to the validators. The least"
          + " wait: while verdicts take longer (a busy pipeline), the first re-send waits 2.5 times the median of"
          + " recent verdict times, at most 15 s.";
  public static final String TRANSFER_RESEND_INTERVAL_MS_CONFIG = "transfer.resend.interval.ms";
  private static final String TRANSFER_RESEND_INTERVAL_MS_DOC =
      "After the first re-send, how often a message still without a verdict is sent again, until its valid_until;"
          + " a failed send (429, 5xx, transport error) is retried sooner, backing off up to this.";

  public static final String TRANSFER_MAX_AMOUNT_NANO_CONFIG = "transfer.max.amount.nano";
  private static final String TRANSFER_MAX_AMOUNT_NANO_DOC =
      "Largest amount of one transfer, in nanotons; a request with a larger transfer is rejected at intake with this"
          + " limit in the reason. A guard against a producer's unit or typing mistake: raise it for treasury moves.";
  public static final String REQUEST_MAX_TOTAL_NANO_CONFIG = "request.max.total.nano";
  private static final String REQUEST_MAX_TOTAL_NANO_DOC =
      "Largest sum of the transfers of one request, in nanotons; a request above it is rejected at intake with this"
          + " limit in the reason.";
  public static final String COMMENT_CONTROL_CHARACTERS_CONFIG = "comment.control.characters";
  private static final String COMMENT_CONTROL_CHARACTERS_DOC =
      "Policy for control, direction-changing and invisible characters in transfer comments. 'reject' (default): a"
          + " comment holding one is rejected, naming the character (U+XXXX and its name) and its position: a control"
          + " character (C0 except TAB, DEL, C1); a bidirectional mark, embedding, override or isolate (U+061C, U+200E,"
          + " U+200F, U+202A..U+202E, U+2066..U+2069); a line or paragraph separator (U+2028, U+2029); or an invisible"
          + " character: every format character (Cf: zero-width space and joiners U+200B..U+200D, word joiner and"
          + " invisible operators U+2060..U+2064, U+FEFF, U+180E, U+00AD, U+206A..U+206F, U+FFF9..U+FFFB, tags, ...),"
          + " U+034F and the Hangul and Khmer fillers (U+115F, U+1160, U+3164, U+FFA0, U+17B4, U+17B5). Emoji keep"
          + " theirs: U+200D between two emoji, tags after U+1F3F4. Such characters let a memo show differently from"
          + " what it is (a deposit memo an exchange attributes by, a reversed text, two memos that look the same and"
          + " differ) and break one-line displays; Persian and Indic text that needs U+200C or U+200D takes 'allow'."
          + " 'allow': they are sent as given. Invalid UTF-8 and unpaired surrogates are refused either way.";
  public static final String COMMENT_CONTROL_REJECT = "reject";
  public static final String COMMENT_CONTROL_ALLOW = "allow";

  public static final String POLLER_INTERVAL_MS_CONFIG = "poller.interval.ms";
  private static final String POLLER_INTERVAL_MS_DOC =
      "How often chain-poller's round runs while it watches transfers. It reads the masterchain only around when the"
          + " next block is due (a few reads per block, whatever this is), so this sets how soon after it comes a block"
          + " is found: half of it on average. Watched wallets are polled once per new block.";
  public static final String POLLER_ROUND_TIMEOUT_MS_CONFIG = "poller.round.timeout.ms";
  private static final String POLLER_ROUND_TIMEOUT_MS_DOC =
      "How long one chain-poller round waits for all watched wallets' reads (issued concurrently); wallets still"
          + " waiting are left unchanged for the next round.";
  public static final String POLLER_FALLBACK_ROUNDS_CONFIG = "poller.fallback.rounds";
  private static final String POLLER_FALLBACK_ROUNDS_DOC =
      "chain-poller polls watched wallets at least every this many rounds even when no new masterchain block was seen"
          + " (or it could not be read).";
  public static final String POLLER_RESOLVED_RETENTION_MS_CONFIG = "poller.resolved.retention.ms";
  private static final String POLLER_RESOLVED_RETENTION_MS_DOC =
      "How long chain-poller remembers a message it published a verdict for, so a re-emitted submission of it"
          + " (streams-app resuming after a crash) is ignored instead of concluded twice.";

  // --- safety: one seqno per transfer, bounded state, global idempotency --------------------
  public static final String TRANSFER_MAX_ATTEMPTS_CONFIG = "transfer.max.attempts";
  private static final String TRANSFER_MAX_ATTEMPTS_DOC =
      "Messages signed for one transfer at most, all with the transfer's one seqno. A new one is signed only after the"
          + " previous one provably expired; when the last expires the transfer is FAILED. The ledger refuses any"
          + " attempt beyond this, also after a crash.";
  public static final String TRANSFER_VERDICT_TIMEOUT_MS_CONFIG = "transfer.verdict.timeout.ms";
  private static final String TRANSFER_VERDICT_TIMEOUT_MS_DOC =
      "How long past valid_until + the clock-skew margin a transfer may wait for the poller's verdict before"
          + " streams-app re-checks it (ledger first, then asks the poller to re-establish it from the chain).";
  public static final String TRANSFER_FEE_RESERVE_NANO_CONFIG = "transfer.fee.reserve.nano";
  private static final String TRANSFER_FEE_RESERVE_NANO_DOC =
      "Nanotons the wallet must hold on top of a transfer's amount before it is signed (fees). A wallet that cannot"
          + " pay fails the transfer at once with the balance in the reason, and moves on.";
  public static final String WALLET_BACKLOG_MAX_CONFIG = "wallet.backlog.max";
  private static final String WALLET_BACKLOG_MAX_DOC =
      "Requests one wallet may have queued; beyond it new requests for the wallet are rejected with a reason.";
  public static final String REQUESTS_DEDUP_RETENTION_MS_CONFIG = "requests.dedup.retention.ms";
  private static final String REQUESTS_DEDUP_RETENTION_MS_DOC =
      "How long streams-app remembers an accepted requestId in its state (by record time), to drop a copy of the"
          + " same request silently and reject the id reused with other content at intake. Beyond it the ledger still"
          + " enforces one content per requestId across the deployment, when the request reaches its wallet's turn.";
  public static final String BATCH_INCOMPLETE_THRESHOLD_MS_CONFIG = "batch.incomplete.threshold.ms";
  private static final String BATCH_INCOMPLETE_THRESHOLD_MS_DOC =
      "A request with some transfers settled and others not for longer than this counts in the"
          + " ton.tx.batch.incomplete gauge.";
  public static final String POLLER_BOUNCE_WINDOW_SECONDS_CONFIG = "poller.bounce.window.seconds";
  private static final String POLLER_BOUNCE_WINDOW_SECONDS_DOC =
      "After confirming a bounceable payout, chain-poller keeps reading the wallet's transactions for this long (by"
          + " the chain's time) to report a bounce; a busy wallet is read anyway, an idle one costs a read per block.";
  public static final String POLLER_FEED_RETENTION_MS_CONFIG = "poller.feed.retention.ms";
  private static final String POLLER_FEED_RETENTION_MS_DOC =
      "chain-poller reads each new block's transactions once for all watched wallets (shards, then"
          + " getBlockTransactionsExt) and keeps them this long, so a submission that reaches the poller after its block"
          + " still finds its transaction there. Transfers from before the feed started or from a gap are scanned per"
          + " wallet. 0 turns the block feed off: every watched wallet is scanned on its own each block (one"
          + " getTransactions per wallet per block), for an API without the block methods.";
  public static final String POLLER_FEED_CLOCK_MARGIN_MS_CONFIG = "poller.feed.clock.margin.ms";
  private static final String POLLER_FEED_CLOCK_MARGIN_MS_DOC =
      "How far apart the clocks of streams-app's hosts (which record a transfer's first message before sending it)"
          + " and chain-poller's host may be. The block feed vouches for a transfer recorded after the feed"
          + " started, less this margin; an earlier one is scanned wallet by wallet. Keep the hosts on NTP: a larger"
          + " difference only delays such a transfer's confirmation until its expiry check (the feed finds messages,"
          + " it never proves one absent).";

  public static final String METRICS_PORT_CONFIG = "metrics.port";
  private static final String METRICS_PORT_DOC =
      "Port of the process's HTTP endpoint: Prometheus text on /metrics, /health/live and /health/ready; 0 disables"
          + " it. Each process needs its own port when both run on one host (PAYOUTS_METRICS_PORT per process).";

  // ---- operations: topic provisioning, group membership (keys of the "run it in production" work)
  public static final String TOPICS_PARTITIONS_CONFIG = "topics.partitions";
  private static final String TOPICS_PARTITIONS_DOC =
      "Partitions of every payout topic that `payouts topics` creates. It bounds the stream tasks, so how many"
          + " instances and threads can share the wallets; payout.requests and payout.confirmations must have the same"
          + " count. Changing it on a live deployment moves wallets between partitions: see docs/operations.md, Scaling out.";
  public static final String TOPICS_REPLICATION_FACTOR_CONFIG = "topics.replication.factor";
  private static final String TOPICS_REPLICATION_FACTOR_DOC =
      "Replication factor of the payout topics that `payouts topics` creates; -1 takes the broker's"
          + " default.replication.factor. Use 3 on a production cluster.";
  public static final String TOPICS_RETENTION_MS_CONFIG = "topics.retention.ms";
  private static final String TOPICS_RETENTION_MS_DOC =
      "retention.ms of the payout topics (cleanup.policy is always delete: every topic is keyed by wallet, so"
          + " compaction would drop all but a wallet's last event); -1 keeps events forever. Settlement consumers must"
          + " read within it.";
  public static final String STREAMS_GROUP_INSTANCE_ID_CONFIG = "streams.group.instance.id";
  private static final String STREAMS_GROUP_INSTANCE_ID_DOC =
      "Static group membership: a stable id per instance (e.g. the pod name; Kafka Streams adds the thread suffix)."
          + " A restart within the session timeout gets its partitions back with no rebalance, and a clean stop keeps"
          + " them reserved; a crashed instance's wallets then wait for the session timeout. Empty: dynamic membership,"
          + " and a clean stop leaves the group so the partitions move at once.";
  public static final String STREAMS_SESSION_TIMEOUT_MS_CONFIG = "streams.session.timeout.ms";
  private static final String STREAMS_SESSION_TIMEOUT_MS_DOC =
      "session.timeout.ms of both apps' consumers: how long the group waits for an instance that stopped answering"
          + " (killed, paused, cut off) before it moves that instance's partitions, and so its wallets, to the others."
          + " Shorter moves them sooner; a pause longer than it (a GC, a slow network) costs a rebalance. The heartbeat"
          + " interval is a third of it, at most 3 s. Must lie within the broker's group.min/max.session.timeout.ms.";

  // ---- the admin API and the ledger's outboxes (keys of the "run it in production" work) ----
  public static final String ADMIN_PORT_CONFIG = "admin.port";
  private static final String ADMIN_PORT_DOC =
      "Port of streams-app's admin API (request lifecycles, wallet views, reconciliation and its resolution;"
          + " docs/operations.md: Admin API); 0 disables it. Every call needs the bearer token (admin.token or admin.token.file);"
          + " streams-app refuses to start with a port and no token. Keep the port off the public network.";
  public static final String ADMIN_TOKEN_CONFIG = "admin.token";
  private static final String ADMIN_TOKEN_DOC =
      "Bearer token of the admin API, at least 16 characters; set it in the environment"
          + " (PAYOUTS_ADMIN_TOKEN), not in a file next to ordinary settings. Never logged. Empty: read admin.token.file.";
  public static final String ADMIN_TOKEN_FILE_CONFIG = "admin.token.file";
  private static final String ADMIN_TOKEN_FILE_DOC =
      "File holding the admin API's bearer token (surrounding whitespace ignored); used when admin.token is empty.";
  // ---- trust: verdicts only chain-poller can make ----
  public static final String VERDICT_MAC_KEYS_CONFIG = "verdict.mac.keys";
  private static final String VERDICT_MAC_KEYS_DOC =
      "The keys that authenticate chain-poller's verdicts: one or more id:hex pairs (hex of at least 32 random bytes,"
          + " e.g. openssl rand -hex 32), separated by commas or new lines. chain-poller signs every record of"
          + " payout.confirmations with the first (HMAC-SHA256 over the topic and the value, in the"
          + " payout-mac header; the value names the wallet, which streams-app checks against the record key); streams-app applies a verdict only when one of them verifies it, and drops, counts"
          + " and audits any other. Rotate by adding the new key second, then first, then removing the old one, one"
          + " rolling restart each. Required by both apps; give it in the environment (PAYOUTS_VERDICT_MAC_KEYS) or,"
          + " better, as verdict.mac.keys.file. Never logged.";
  public static final String VERDICT_MAC_KEYS_FILE_CONFIG = "verdict.mac.keys.file";
  private static final String VERDICT_MAC_KEYS_FILE_DOC =
      "File holding verdict.mac.keys (used when it is empty): readable by the service's user only.";
  public static final String OUTBOX_POLL_INTERVAL_MS_CONFIG = "outbox.poll.interval.ms";
  private static final String OUTBOX_POLL_INTERVAL_MS_DOC =
      "How often streams-app publishes what its ledger holds for Kafka and has not published yet: every audit_log row"
          + " to payout.audit, and the settlements of operators' resolutions to payout.settlements. While both outboxes"
          + " stay empty it waits twice as long after each run, up to 5 times this. Published at least"
          + " once (a crash between the send and its mark repeats it; consumers deduplicate on the audit id).";
  // ---- secrets from files, and the TON API client's guards against a faulty or hostile node (issue 24) ----
  public static final String POSTGRES_PASSWORD_FILE_CONFIG = "postgres.password.file";
  private static final String POSTGRES_PASSWORD_FILE_DOC =
      "File holding the ledger database password (surrounding whitespace ignored), used when postgres.password is"
          + " empty; readable by the service's user only (chmod 600), or the process refuses to start.";
  public static final String TON_API_KEY_FILE_CONFIG = "ton.api.key.file";
  private static final String TON_API_KEY_FILE_DOC =
      "File holding the TON API key (surrounding whitespace ignored), used when ton.api.key is empty; readable by"
          + " the service's user only (chmod 600), or the process refuses to start.";
  public static final String WALLET_SECRET_INLINE_ALLOWED_CONFIG = "wallet.secret.inline.allowed";
  private static final String WALLET_SECRET_INLINE_ALLOWED_DOC =
      "Accept the wallet secret itself in the environment (TON_WALLET_MNEMONIC, TON_WALLET_SEED_HEX), for the laptop"
          + " demo's throwaway devnet key (docker-compose.yml) only. Off, such a variable stops streams-app: an"
          + " environment is seen by child processes, crash reports and docker inspect; give the secret as a file.";
  public static final String TON_API_INSECURE_HTTP_ALLOWED_CONFIG = "ton.api.insecure.http.allowed";
  private static final String TON_API_INSECURE_HTTP_ALLOWED_DOC =
      "Accept an http:// ton.api.url whose host is not loopback (localhost, 127.0.0.0/8, ::1). Off, such a URL stops"
          + " the process: anyone on the path could read the API key and forge the answers verdicts rest on. Only for a"
          + " network nobody else can read or change (the compose demo's devnet).";
  public static final String TON_API_MAX_RESPONSE_BYTES_CONFIG = "ton.api.max.response.bytes";
  private static final String TON_API_MAX_RESPONSE_BYTES_DOC =
      "Largest TON API answer read, in bytes: a larger one (by its Content-Length, or once that many bytes arrived)"
          + " fails its call, which is retried like a transport error, before it can fill the heap; all answers being"
          + " read at once hold at most 4 times this. The default holds a full page of 1,024 heavy transactions"
          + " (getBlockTransactionsExt). Answers are also refused when nested"
          + " deeper than " + TonApiConfig.MAX_JSON_DEPTH + " levels, with a number longer than "
          + TonApiConfig.MAX_JSON_NUMBER_LENGTH + " digits, or when a 2xx answer is not JSON (an HTML portal page).";

  // ---- the HTTP surfaces: where they listen, TLS of the admin API, request limits (issue 24) ----
  public static final String METRICS_BIND_ADDRESS_CONFIG = "metrics.bind.address";
  private static final String METRICS_BIND_ADDRESS_DOC =
      "Address of this machine that metrics.port listens on (an IP literal or a host name). 0.0.0.0 (the default)"
          + " takes every IPv4 interface, so Prometheus and the orchestrator's probes reach it; :: takes every interface."
          + " It serves no secret (/health answers name each check and its status, never a URL, host or credential),"
          + " but keep it off the public network.";
  public static final String ADMIN_BIND_ADDRESS_CONFIG = "admin.bind.address";
  private static final String ADMIN_BIND_ADDRESS_DOC =
      "Address of this machine that admin.port listens on. The default 127.0.0.1 serves operators on this host"
          + " only (or through an SSH tunnel or a sidecar); in a container set 0.0.0.0 and publish the port to"
          + " a private network only. Off loopback, also set admin.tls.keystore.file: the bearer token is sent with"
          + " every call.";
  public static final String ADMIN_TLS_KEYSTORE_FILE_CONFIG = "admin.tls.keystore.file";
  private static final String ADMIN_TLS_KEYSTORE_FILE_DOC =
      "PKCS12 key store holding the admin API's private key and certificate chain: with it the admin API serves"
          + " HTTPS only (TLS 1.2 and 1.3). Empty: plain HTTP.";
  public static final String ADMIN_TLS_KEYSTORE_PASSWORD_CONFIG = "admin.tls.keystore.password";
  private static final String ADMIN_TLS_KEYSTORE_PASSWORD_DOC =
      "Password of admin.tls.keystore.file (and of its key); give it in the environment"
          + " (PAYOUTS_ADMIN_TLS_KEYSTORE_PASSWORD) or, better, as admin.tls.keystore.password.file. Never logged.";
  public static final String ADMIN_TLS_KEYSTORE_PASSWORD_FILE_CONFIG = "admin.tls.keystore.password.file";
  private static final String ADMIN_TLS_KEYSTORE_PASSWORD_FILE_DOC =
      "File holding the key store's password (surrounding whitespace ignored), readable by the service's user"
          + " only; used when admin.tls.keystore.password is empty.";
  public static final String HTTP_REQUEST_TIMEOUT_SECONDS_CONFIG = "http.request.timeout.seconds";
  private static final String HTTP_REQUEST_TIMEOUT_SECONDS_DOC =
      "Both HTTP surfaces (metrics.port, admin.port): a request must arrive whole (line, headers, body) within this"
          + " many seconds of its first byte, and a connection idle this long is closed; a client that sends slowly"
          + " or not at all is cut off. An answer must be written within 120 s. The JDK's server reads these once"
          + " per process.";
  public static final String HTTP_MAX_CONNECTIONS_CONFIG = "http.max.connections";
  private static final String HTTP_MAX_CONNECTIONS_DOC =
      "Open connections each HTTP surface takes at most; beyond it new ones are closed at once. Each surface has as"
          + " many handler threads as this (started on demand), so clients holding connections never keep"
          + " /health from answering.";

  // ---- the network (issue 25): which TON network this deployment pays on, checked against the node ----
  public static final String TON_NETWORK_CONFIG = "ton.network";
  private static final String TON_NETWORK_DOC =
      "The TON network this deployment pays on: mainnet, testnet or devnet (the local chain). Required by"
          + " streams-app and chain-poller, which at start read the TON API node's global id (configuration"
          + " parameter 19: " + TonNetwork.MAINNET.globalId() + " mainnet, " + TonNetwork.TESTNET.globalId()
          + " testnet, " + TonNetwork.DEVNET_GLOBAL_ID + " devnet) and refuse to start (exit 2) on a node of another"
          + " network, naming both: a message carries no network, so a key with wallets on both would sign for"
          + " whichever one ton.api.url happens to reach. On mainnet, intake rejects a destination whose"
          + " user-friendly form is flagged for testnet (kQ..., 0Q...). The local stack and docker-compose.yml set"
          + " devnet.";

  /** The shortest admin token streams-app accepts. */
  public static final int ADMIN_TOKEN_MIN_LENGTH = 16;

  public static final ConfigDef CONFIG = new ConfigDef()
      .define(KAFKA_BOOTSTRAP_SERVERS_CONFIG, Type.STRING, "localhost:9092", Importance.HIGH, KAFKA_BOOTSTRAP_SERVERS_DOC)
      .define(STREAMS_APPLICATION_ID_CONFIG, Type.STRING, "ton-payouts", Importance.HIGH, STREAMS_APPLICATION_ID_DOC)
      .define(POLLER_APPLICATION_ID_CONFIG, Type.STRING, "ton-payouts-poller", Importance.HIGH, POLLER_APPLICATION_ID_DOC)
      .define(STREAMS_STATE_DIR_CONFIG, Type.STRING, defaultStateDir(), Importance.MEDIUM, STREAMS_STATE_DIR_DOC)
      .define(STREAMS_COMMIT_INTERVAL_MS_CONFIG, Type.LONG, 20L, Range.atLeast(1), Importance.MEDIUM, STREAMS_COMMIT_INTERVAL_MS_DOC)
      .define(STREAMS_NUM_THREADS_CONFIG, Type.INT, 1, Range.between(1, 64), Importance.MEDIUM, STREAMS_NUM_THREADS_DOC)
      .define(POSTGRES_URL_CONFIG, Type.STRING, "jdbc:postgresql://localhost:5432/payouts", Importance.HIGH, POSTGRES_URL_DOC)
      .define(POSTGRES_USER_CONFIG, Type.STRING, "payouts", Importance.HIGH, POSTGRES_USER_DOC)
      .define(POSTGRES_PASSWORD_CONFIG, Type.PASSWORD, "", Importance.HIGH, POSTGRES_PASSWORD_DOC)
      .define(TON_API_URL_CONFIG, Type.STRING, "http://127.0.0.1:8081", Importance.HIGH, TON_API_URL_DOC)
      .define(TON_API_KEY_CONFIG, Type.PASSWORD, "", Importance.HIGH, TON_API_KEY_DOC)
      .define(TON_API_RPS_CONFIG, Type.DOUBLE, 10.0, Range.atLeast(0.01), Importance.HIGH, TON_API_RPS_DOC)
      .define(TON_API_TIMEOUT_MS_CONFIG, Type.LONG, 10_000L, Range.atLeast(1), Importance.MEDIUM, TON_API_TIMEOUT_MS_DOC)
      .define(TON_API_MAX_IN_FLIGHT_CONFIG, Type.INT, TonApiConfig.DEFAULT_MAX_IN_FLIGHT, Range.atLeast(1),
          Importance.LOW, TON_API_MAX_IN_FLIGHT_DOC)
      .define(TON_TESTNET_CONFIG, Type.BOOLEAN, false, Importance.LOW, TON_TESTNET_DOC)
      .define(WALLET_WORKCHAIN_CONFIG, Type.INT, 0, Range.between(-1, 0), Importance.HIGH, WALLET_WORKCHAIN_DOC)
      .define(WALLET_SUBWALLET_MIN_CONFIG, Type.LONG, Subwallets.DEFAULT_SUBWALLET_ID, Range.between(0L, 0xFFFF_FFFFL),
          Importance.HIGH, WALLET_SUBWALLET_MIN_DOC)
      .define(WALLET_SUBWALLET_MAX_CONFIG, Type.LONG, Subwallets.DEFAULT_SUBWALLET_ID + 9_999L, Range.between(0L, 0xFFFF_FFFFL),
          Importance.HIGH, WALLET_SUBWALLET_MAX_DOC)
      .define(WALLET_SECRET_FILE_CONFIG, Type.STRING, "", Importance.HIGH, WALLET_SECRET_FILE_DOC)
      .define(TRANSFER_TTL_SECONDS_CONFIG, Type.INT, 60, Range.between(10, 3600), Importance.MEDIUM, TRANSFER_TTL_SECONDS_DOC)
      .define(TRANSFER_CLOCK_SKEW_SECONDS_CONFIG, Type.INT, 10, Range.between(0, 600), Importance.MEDIUM,
          TRANSFER_CLOCK_SKEW_SECONDS_DOC)
      .define(TRANSFER_SEQNO_TIMEOUT_MS_CONFIG, Type.LONG, 5_000L, Range.atLeast(1), Importance.MEDIUM,
          TRANSFER_SEQNO_TIMEOUT_MS_DOC)
      .define(TRANSFER_RESEND_AFTER_MS_CONFIG, Type.LONG, 1_200L, Range.atLeast(100), Importance.MEDIUM,
          TRANSFER_RESEND_AFTER_MS_DOC)
      .define(TRANSFER_RESEND_INTERVAL_MS_CONFIG, Type.LONG, 800L, Range.atLeast(100), Importance.MEDIUM,
          TRANSFER_RESEND_INTERVAL_MS_DOC)
      .define(TRANSFER_MAX_AMOUNT_NANO_CONFIG, Type.LONG, 1_000_000_000_000L, Range.atLeast(1), Importance.HIGH,
          TRANSFER_MAX_AMOUNT_NANO_DOC)
      .define(REQUEST_MAX_TOTAL_NANO_CONFIG, Type.LONG, 1_000_000_000_000L, Range.atLeast(1), Importance.HIGH,
          REQUEST_MAX_TOTAL_NANO_DOC)
      .define(COMMENT_CONTROL_CHARACTERS_CONFIG, Type.STRING, COMMENT_CONTROL_REJECT,
          ConfigDef.ValidString.in(COMMENT_CONTROL_REJECT, COMMENT_CONTROL_ALLOW), Importance.MEDIUM,
          COMMENT_CONTROL_CHARACTERS_DOC)
      .define(POLLER_INTERVAL_MS_CONFIG, Type.LONG, 30L, Range.atLeast(1), Importance.MEDIUM, POLLER_INTERVAL_MS_DOC)
      .define(POLLER_ROUND_TIMEOUT_MS_CONFIG, Type.LONG, 3_000L, Range.atLeast(1), Importance.MEDIUM,
          POLLER_ROUND_TIMEOUT_MS_DOC)
      .define(POLLER_FALLBACK_ROUNDS_CONFIG, Type.INT, 20, Range.atLeast(1), Importance.LOW, POLLER_FALLBACK_ROUNDS_DOC)
      .define(POLLER_RESOLVED_RETENTION_MS_CONFIG, Type.LONG, 600_000L, Range.atLeast(1), Importance.LOW,
          POLLER_RESOLVED_RETENTION_MS_DOC)
      .define(TRANSFER_MAX_ATTEMPTS_CONFIG, Type.INT, 5, Range.between(1, 100), Importance.MEDIUM,
          TRANSFER_MAX_ATTEMPTS_DOC)
      .define(TRANSFER_VERDICT_TIMEOUT_MS_CONFIG, Type.LONG, 30_000L, Range.atLeast(1), Importance.MEDIUM,
          TRANSFER_VERDICT_TIMEOUT_MS_DOC)
      .define(TRANSFER_FEE_RESERVE_NANO_CONFIG, Type.LONG, 10_000_000L, Range.atLeast(0), Importance.MEDIUM,
          TRANSFER_FEE_RESERVE_NANO_DOC)
      .define(WALLET_BACKLOG_MAX_CONFIG, Type.INT, 10_000, Range.atLeast(1), Importance.MEDIUM, WALLET_BACKLOG_MAX_DOC)
      .define(REQUESTS_DEDUP_RETENTION_MS_CONFIG, Type.LONG, 7L * 24 * 3600 * 1000, Range.atLeast(60_000L),
          Importance.MEDIUM, REQUESTS_DEDUP_RETENTION_MS_DOC)
      .define(BATCH_INCOMPLETE_THRESHOLD_MS_CONFIG, Type.LONG, 300_000L, Range.atLeast(1), Importance.LOW,
          BATCH_INCOMPLETE_THRESHOLD_MS_DOC)
      .define(POLLER_BOUNCE_WINDOW_SECONDS_CONFIG, Type.INT, 30, Range.between(0, 3600), Importance.LOW,
          POLLER_BOUNCE_WINDOW_SECONDS_DOC)
      .define(POLLER_FEED_RETENTION_MS_CONFIG, Type.LONG, 60_000L, Range.between(0, 3_600_000), Importance.LOW,
          POLLER_FEED_RETENTION_MS_DOC)
      .define(POLLER_FEED_CLOCK_MARGIN_MS_CONFIG, Type.LONG, 2_000L, Range.between(0, 600_000), Importance.LOW,
          POLLER_FEED_CLOCK_MARGIN_MS_DOC)
      .define(METRICS_PORT_CONFIG, Type.INT, 0, Range.between(0, 65535), Importance.LOW, METRICS_PORT_DOC)
      .define(TOPICS_PARTITIONS_CONFIG, Type.INT, 12, Range.between(1, 10_000), Importance.MEDIUM, TOPICS_PARTITIONS_DOC)
      .define(TOPICS_REPLICATION_FACTOR_CONFIG, Type.INT, -1, Range.between(-1, Short.MAX_VALUE), Importance.MEDIUM,
          TOPICS_REPLICATION_FACTOR_DOC)
      .define(TOPICS_RETENTION_MS_CONFIG, Type.LONG, 7 * 24 * 3_600_000L, ConfigDef.LambdaValidator.with(
              (name, value) -> {
                if (value == null || ((Long) value) == 0 || ((Long) value) < -1) {
                  throw new ConfigException(name, value, "must be -1 (forever) or a positive number of milliseconds");
                }
              }, () -> "-1 or at least 1"), Importance.MEDIUM, TOPICS_RETENTION_MS_DOC)
      .define(STREAMS_GROUP_INSTANCE_ID_CONFIG, Type.STRING, "", Importance.LOW, STREAMS_GROUP_INSTANCE_ID_DOC)
      .define(STREAMS_SESSION_TIMEOUT_MS_CONFIG, Type.INT, 45_000, Range.between(1_000, 1_800_000), Importance.LOW,
          STREAMS_SESSION_TIMEOUT_MS_DOC)
      .define(ADMIN_PORT_CONFIG, Type.INT, 0, Range.between(0, 65535), Importance.MEDIUM, ADMIN_PORT_DOC)
      .define(ADMIN_TOKEN_CONFIG, Type.PASSWORD, "", Importance.MEDIUM, ADMIN_TOKEN_DOC)
      .define(ADMIN_TOKEN_FILE_CONFIG, Type.STRING, "", Importance.MEDIUM, ADMIN_TOKEN_FILE_DOC)
      .define(OUTBOX_POLL_INTERVAL_MS_CONFIG, Type.LONG, 200L, Range.between(1L, 60_000L), Importance.LOW,
          OUTBOX_POLL_INTERVAL_MS_DOC)
      .define(VERDICT_MAC_KEYS_CONFIG, Type.PASSWORD, "", Importance.HIGH, VERDICT_MAC_KEYS_DOC)
      .define(VERDICT_MAC_KEYS_FILE_CONFIG, Type.STRING, "", Importance.HIGH, VERDICT_MAC_KEYS_FILE_DOC)
      // secrets from files, and the TON API client's guards (issue 24)
      .define(POSTGRES_PASSWORD_FILE_CONFIG, Type.STRING, "", Importance.HIGH, POSTGRES_PASSWORD_FILE_DOC)
      .define(TON_API_KEY_FILE_CONFIG, Type.STRING, "", Importance.HIGH, TON_API_KEY_FILE_DOC)
      .define(WALLET_SECRET_INLINE_ALLOWED_CONFIG, Type.BOOLEAN, false, Importance.LOW, WALLET_SECRET_INLINE_ALLOWED_DOC)
      .define(TON_API_INSECURE_HTTP_ALLOWED_CONFIG, Type.BOOLEAN, false, Importance.LOW,
          TON_API_INSECURE_HTTP_ALLOWED_DOC)
      .define(TON_API_MAX_RESPONSE_BYTES_CONFIG, Type.LONG, TonApiConfig.DEFAULT_MAX_RESPONSE_BYTES,
          Range.between(64L * 1024, 1024L * 1024 * 1024), Importance.LOW, TON_API_MAX_RESPONSE_BYTES_DOC);

  // ---- several TON API providers (issue 27) ----
  public static final String TON_API_URLS_CONFIG = "ton.api.urls";
  private static final String TON_API_URLS_DOC =
      "Several TON API providers instead of ton.api.url (set one of the two, not both), in order of preference,"
          + " comma-separated; each a base URL followed by |name=<metrics tag>, |key.file=<file holding its API key>"
          + " and |rate=<requests per second, default ton.api.requests.per.second>, e.g."
          + " https://toncenter.com|key.file=/run/secrets/toncenter|rate=25,https://api.example.net|name=own. A call"
          + " goes to the first provider in use and, when it fails by itself (transport, timeout, 429, 5xx), to the"
          + " next; a send goes on as the same signed message (it can apply once), a rejection of the message ends it."
          + " Every answer comes whole from one provider, with that node's own time: a lagging provider can delay an"
          + " expiry, never cause one. Keys only from files (an inline key= is refused). Every provider is checked at"
          + " start (network, clock).";
  public static final String TON_API_PROVIDER_FAILURES_CONFIG = "ton.api.provider.failures.before.set.aside";
  private static final String TON_API_PROVIDER_FAILURES_DOC =
      "With several providers (ton.api.urls): failures in a row that set a provider aside.";
  public static final String TON_API_PROVIDER_SET_ASIDE_MS_CONFIG = "ton.api.provider.set.aside.ms";
  private static final String TON_API_PROVIDER_SET_ASIDE_MS_DOC =
      "With several providers (ton.api.urls): how long a provider stays set aside before one call probes it; an"
          + " answer brings it back, a failure sets it aside again.";

  public static final String TON_API_PROVIDER_LAG_BLOCKS_CONFIG = "ton.api.provider.lag.blocks";
  private static final String TON_API_PROVIDER_LAG_BLOCKS_DOC =
      "With several providers (ton.api.urls): masterchain blocks behind the most advanced provider that set a"
          + " provider aside as lagging (a node behind the chain answers every call, about a chain that moved on);"
          + " a later check that finds it caught up brings it back. 0 turns the check off.";
  public static final String TON_API_PROVIDER_LAG_CHECK_MS_CONFIG = "ton.api.provider.lag.check.ms";
  private static final String TON_API_PROVIDER_LAG_CHECK_MS_DOC =
      "With several providers (ton.api.urls): how often each provider is asked for its masterchain head to find"
          + " lagging ones (one getMasterchainInfo per provider each time).";

  static {
    // several TON API providers (issue 27), in a block of their own so that keys added alongside merge cleanly
    CONFIG
        .define(TON_API_URLS_CONFIG, Type.STRING, "", Importance.HIGH, TON_API_URLS_DOC)
        .define(TON_API_PROVIDER_FAILURES_CONFIG, Type.INT, ProviderPool.Settings.DEFAULT.failuresToSetAside(),
            Range.between(1, 100), Importance.LOW, TON_API_PROVIDER_FAILURES_DOC)
        .define(TON_API_PROVIDER_SET_ASIDE_MS_CONFIG, Type.LONG, ProviderPool.Settings.DEFAULT.setAsideFor().toMillis(),
            Range.between(100L, 3_600_000L), Importance.LOW, TON_API_PROVIDER_SET_ASIDE_MS_DOC)
        .define(TON_API_PROVIDER_LAG_BLOCKS_CONFIG, Type.INT, ProviderPool.Settings.DEFAULT.lagBlocks(),
            Range.between(0, 100_000), Importance.LOW, TON_API_PROVIDER_LAG_BLOCKS_DOC)
        .define(TON_API_PROVIDER_LAG_CHECK_MS_CONFIG, Type.LONG,
            ProviderPool.Settings.DEFAULT.lagCheckEvery().toMillis(), Range.between(100L, 3_600_000L), Importance.LOW,
            TON_API_PROVIDER_LAG_CHECK_MS_DOC);
  }

  // ---- bounded waits on the ledger (issue 27), in a block of their own so keys merge cleanly ----
  public static final String POSTGRES_CONNECTION_TIMEOUT_MS_CONFIG = "postgres.connection.timeout.ms";
  private static final String POSTGRES_CONNECTION_TIMEOUT_MS_DOC =
      "How long a ledger call waits for one of the pool's connections, in ms (at least 250). While PostgreSQL is"
          + " down or frozen no connection can be opened: each call (an issuing round, a batch of verdicts, the"
          + " readiness check, an admin request) then fails after this long, logged as a ledger outage"
          + " ('Connection is not available, request timed out after ...ms'), and is tried again later. Opening one"
          + " connection (TCP connect and login) is bounded by the same time, in whole seconds rounded up.";
  public static final String POSTGRES_SOCKET_TIMEOUT_MS_CONFIG = "postgres.socket.timeout.ms";
  private static final String POSTGRES_SOCKET_TIMEOUT_MS_DOC =
      "How long a ledger statement waits for the server's answer, in ms (the driver's socketTimeout, which counts"
          + " whole seconds: rounded up); 0: forever. Past it the statement fails with an I/O error ('Read timed"
          + " out'), its connection is closed (the server rolls its transaction back) and the call is tried again"
          + " later, so a PostgreSQL that stops answering (a VM pause, a stalled disk, a failover that leaves the"
          + " connection silent) holds no thread for as long as it lasts. Keep it well above the longest legitimate"
          + " statement: the ledger's longest are lock waits behind another instance's short recording transaction."
          + " Schema migrations (Flyway) run without it.";
  /**
   * {@value #POSTGRES_CONNECTION_TIMEOUT_MS_CONFIG} unless configured; Hikari's own default, 30 s, outlasts a
   * stream thread's exactly-once transaction (10 s).
   */
  public static final Duration DEFAULT_POSTGRES_CONNECTION_TIMEOUT = Duration.ofSeconds(5);
  /** {@value #POSTGRES_SOCKET_TIMEOUT_MS_CONFIG} unless configured. */
  public static final Duration DEFAULT_POSTGRES_SOCKET_TIMEOUT = Duration.ofSeconds(30);
  /** The longest {@value #POSTGRES_SOCKET_TIMEOUT_MS_CONFIG}: an hour (beyond it, 0 says what is meant). */
  private static final long MAX_POSTGRES_SOCKET_TIMEOUT_MS = 3_600_000L;

  static {
    // bounded waits on the ledger (issue 27)
    CONFIG
        .define(POSTGRES_CONNECTION_TIMEOUT_MS_CONFIG, Type.LONG, DEFAULT_POSTGRES_CONNECTION_TIMEOUT.toMillis(),
            Range.between(250L, 300_000L), Importance.MEDIUM, POSTGRES_CONNECTION_TIMEOUT_MS_DOC)
        .define(POSTGRES_SOCKET_TIMEOUT_MS_CONFIG, Type.LONG, DEFAULT_POSTGRES_SOCKET_TIMEOUT.toMillis(),
            ConfigDef.LambdaValidator.with((name, value) -> {
              long ms = ((Number) value).longValue();
              if (ms != 0 && (ms < 1_000 || ms > MAX_POSTGRES_SOCKET_TIMEOUT_MS)) {
                throw new ConfigException(name, value, "must be 0 (no timeout) or from 1000 (the driver counts whole"
                    + " seconds) to " + MAX_POSTGRES_SOCKET_TIMEOUT_MS);
              }
            }, () -> "0 (none) or [1000,...," + MAX_POSTGRES_SOCKET_TIMEOUT_MS + "]"),
            Importance.MEDIUM, POSTGRES_SOCKET_TIMEOUT_MS_DOC);
  }

  /** {@value #POSTGRES_CONNECTION_TIMEOUT_MS_CONFIG}: how long a ledger call waits for a pooled connection. */
  public Duration postgresConnectionTimeout() {
    return Duration.ofMillis(getLong(POSTGRES_CONNECTION_TIMEOUT_MS_CONFIG));
  }

  /** {@value #POSTGRES_SOCKET_TIMEOUT_MS_CONFIG}: how long a statement waits for an answer; zero for no limit. */
  public Duration postgresSocketTimeout() {
    return Duration.ofMillis(getLong(POSTGRES_SOCKET_TIMEOUT_MS_CONFIG));
  }

  static {
    // the HTTP surfaces (issue 24), in a block of their own so that keys added alongside merge cleanly
    CONFIG
        .define(METRICS_BIND_ADDRESS_CONFIG, Type.STRING, "0.0.0.0", new ConfigDef.NonEmptyString(), Importance.MEDIUM,
            METRICS_BIND_ADDRESS_DOC)
        .define(ADMIN_BIND_ADDRESS_CONFIG, Type.STRING, "127.0.0.1", new ConfigDef.NonEmptyString(), Importance.HIGH,
            ADMIN_BIND_ADDRESS_DOC)
        .define(ADMIN_TLS_KEYSTORE_FILE_CONFIG, Type.STRING, "", Importance.MEDIUM, ADMIN_TLS_KEYSTORE_FILE_DOC)
        .define(ADMIN_TLS_KEYSTORE_PASSWORD_CONFIG, Type.PASSWORD, "", Importance.MEDIUM, ADMIN_TLS_KEYSTORE_PASSWORD_DOC)
        .define(ADMIN_TLS_KEYSTORE_PASSWORD_FILE_CONFIG, Type.STRING, "", Importance.MEDIUM,
            ADMIN_TLS_KEYSTORE_PASSWORD_FILE_DOC)
        .define(HTTP_REQUEST_TIMEOUT_SECONDS_CONFIG, Type.INT, 10, Range.between(1, 300), Importance.LOW,
            HTTP_REQUEST_TIMEOUT_SECONDS_DOC)
        .define(HTTP_MAX_CONNECTIONS_CONFIG, Type.INT, 32, Range.between(1, 10_000), Importance.LOW,
            HTTP_MAX_CONNECTIONS_DOC);
  }

  static {
    // the network checked (issue 25), in a block of its own so that keys added alongside merge cleanly
    CONFIG
        .define(TON_NETWORK_CONFIG, Type.STRING, "", ConfigDef.LambdaValidator.with((name, value) -> {
          if (value != null && !value.toString().isBlank() && TonNetwork.byName(value.toString()).isEmpty()) {
            throw new ConfigException(name, value, "must be mainnet, testnet or devnet");
          }
        }, () -> "mainnet, testnet or devnet (required by both apps)"), Importance.HIGH, TON_NETWORK_DOC);
  }

  // ---- issue 25, the pause switch and the ledger's owner: a block of its own so keys merge cleanly ----
  public static final String POSTGRES_MIGRATE_CONFIG = "postgres.migrate";
  private static final String POSTGRES_MIGRATE_DOC =
      "Whether streams-app brings the ledger schema up to date (Flyway) at start. false: it only checks that the"
          + " schema is current and refuses to start otherwise; the migrations are then run by the schema's owner"
          + " with `streams-app migrate` (docs/production.md, Database roles), and the service's own user needs no"
          + " right to change the schema.";
  public static final String PAUSE_REFRESH_MS_CONFIG = "pause.refresh.ms";
  private static final String PAUSE_REFRESH_MS_DOC =
      "How often streams-app re-reads the operators' pauses (admin API: pause, resume) from the ledger, in ms."
          + " Issuing skips paused wallets on this copy; the ledger itself refuses a new transfer's intent while a"
          + " pause covers its wallet, so a pause takes effect at once whatever this is, and a lifted pause lets"
          + " queued transfers go within about this long.";

  static {
    // issue 25: the pause switch and running migrations as the schema's owner
    CONFIG
        .define(POSTGRES_MIGRATE_CONFIG, Type.BOOLEAN, true, Importance.MEDIUM, POSTGRES_MIGRATE_DOC)
        .define(PAUSE_REFRESH_MS_CONFIG, Type.LONG, 250L, Range.between(20L, 60_000L), Importance.LOW,
            PAUSE_REFRESH_MS_DOC);
  }

  /** {@value #POSTGRES_MIGRATE_CONFIG}. */
  public boolean postgresMigrate() {
    return getBoolean(POSTGRES_MIGRATE_CONFIG);
  }

  /** {@value #PAUSE_REFRESH_MS_CONFIG}. */
  public Duration pauseRefresh() {
    return Duration.ofMillis(getLong(PAUSE_REFRESH_MS_CONFIG));
  }

  // ---- issue 25: destinations no request may pay, in a block of its own so keys merge cleanly ----
  public static final String DESTINATION_OWN_WALLETS_ALLOWED_CONFIG = "destination.own.wallets.allowed";
  private static final String DESTINATION_OWN_WALLETS_ALLOWED_DOC =
      "Whether a request may pay one of this deployment's own subwallets (wallet.subwallet.min..max under the"
          + " wallet key). Off (the default), such a transfer is rejected at intake: a payout between our own wallets"
          + " moves nothing out, so it is a producer's mistake or a stolen producer credential cycling funds and fees."
          + " Turn it on for treasury moves between subwallets. Off, streams-app indexes the range's addresses at"
          + " start, so the range may hold at most 100,000 ids.";
  public static final String DESTINATION_DENY_FILE_CONFIG = "destination.deny.file";
  private static final String DESTINATION_DENY_FILE_DOC =
      "File of addresses no request may pay (sanctioned or compromised addresses, the deployment's own deposit"
          + " addresses): one per line in any form (raw, bounceable or not, testnet flag or not; compared by"
          + " workchain and hash), blank lines and text after # ignored. A transfer to one is rejected at intake,"
          + " naming the line. Read at start: restart streams-app to apply a change. Empty: none.";

  static {
    CONFIG
        .define(DESTINATION_OWN_WALLETS_ALLOWED_CONFIG, Type.BOOLEAN, false, Importance.MEDIUM,
            DESTINATION_OWN_WALLETS_ALLOWED_DOC)
        .define(DESTINATION_DENY_FILE_CONFIG, Type.STRING, "", Importance.MEDIUM, DESTINATION_DENY_FILE_DOC);
  }

  // ---- issue 25: operators by name and the two-person rule, in a block of its own so keys merge cleanly ----
  public static final String ADMIN_OPERATORS_FILE_CONFIG = "admin.operators.file";
  private static final String ADMIN_OPERATORS_FILE_DOC =
      "File of the operators who may call the admin API, one per line: '<name> sha256:<64 hex digits>', the SHA-256"
          + " of the operator's own token (make a line with `payouts-cli admin operator-token --name <name>`); blank"
          + " lines and text after # ignored. Each call is then made, and audited, as the operator whose token it"
          + " carries, with the caller's address. Mode 600 like every secret file (whoever can write it can add an"
          + " operator). Re-read when it changes: an invalid new version is refused with an ERROR and the previous one"
          + " stays in force. Replaces the shared admin.token: setting both stops streams-app at start.";
  public static final String ADMIN_APPROVAL_THRESHOLD_NANO_CONFIG = "admin.approval.threshold.nano";
  private static final String ADMIN_APPROVAL_THRESHOLD_NANO_DOC =
      "The two-person rule: resolving a transfer of at least this many nanotons takes two different operators, one"
          + " who asks and one who approves (admin API: approvals); the resolution takes effect at the approval, with"
          + " the chain evidence checked again then. 0: every resolution; -1 (the default): off. Needs"
          + " admin.operators.file (with one shared token nobody can tell two operators apart, so streams-app refuses"
          + " to start).";
  public static final String ADMIN_APPROVAL_TTL_SECONDS_CONFIG = "admin.approval.ttl.seconds";
  private static final String ADMIN_APPROVAL_TTL_SECONDS_DOC =
      "How long a resolution waits for its second operator before it expires (then it must be asked for again), in"
          + " seconds.";

  static {
    CONFIG
        .define(ADMIN_OPERATORS_FILE_CONFIG, Type.STRING, "", Importance.HIGH, ADMIN_OPERATORS_FILE_DOC)
        .define(ADMIN_APPROVAL_THRESHOLD_NANO_CONFIG, Type.LONG, -1L, Range.atLeast(-1L), Importance.HIGH,
            ADMIN_APPROVAL_THRESHOLD_NANO_DOC)
        .define(ADMIN_APPROVAL_TTL_SECONDS_CONFIG, Type.LONG, 24L * 3600, Range.between(60L, 30L * 24 * 3600),
            Importance.MEDIUM, ADMIN_APPROVAL_TTL_SECONDS_DOC);
  }

  /** {@value #ADMIN_OPERATORS_FILE_CONFIG}, when operators call the admin API by name. */
  public Optional<Path> adminOperatorsFile() {
    String file = getString(ADMIN_OPERATORS_FILE_CONFIG);
    return file.isBlank() ? Optional.empty() : Optional.of(Path.of(file.strip()));
  }

  /** {@value #ADMIN_APPROVAL_THRESHOLD_NANO_CONFIG}: from which amount a resolution needs a second operator; empty when off. */
  public java.util.OptionalLong adminApprovalThresholdNano() {
    long threshold = getLong(ADMIN_APPROVAL_THRESHOLD_NANO_CONFIG);
    return threshold < 0 ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(threshold);
  }

  /** {@value #ADMIN_APPROVAL_TTL_SECONDS_CONFIG}. */
  public Duration adminApprovalTtl() {
    return Duration.ofSeconds(getLong(ADMIN_APPROVAL_TTL_SECONDS_CONFIG));
  }

  // ---- issue 25: rolling spend caps, in a block of its own so keys merge cleanly ----
  public static final String SPEND_CAP_WALLET_CONFIG = "spend.cap.wallet";
  private static final String SPEND_CAP_WALLET_DOC =
      "Rolling caps on what one subwallet may sign away: comma-separated <window>:<nanotons>, the window a whole"
          + " number with m, h or d from 1m to 31d, e.g. 1h:500000000000,24h:5000000000000. A transfer counts once,"
          + " from its first signed message, whatever its outcome. A transfer that would take a window over its cap"
          + " is not signed: it waits (admin API GET /admin/holds, the wallet view, a WARNING SPEND_CAP_HELD audit"
          + " event) until the window has room or an operator releases it, and the wallet's later transfers wait"
          + " behind it. Windows are kept in sixtieths: a spend leaves a window between the window and 61/60 of it"
          + " after it was signed. Empty: no per-wallet cap.";
  public static final String SPEND_CAP_DEPLOYMENT_CONFIG = "spend.cap.deployment";
  private static final String SPEND_CAP_DEPLOYMENT_DOC =
      "Rolling caps on what all subwallets together may sign away, in the form of " + SPEND_CAP_WALLET_CONFIG + "."
          + " Checked in the ledger under one lock for the whole deployment, so every instance obeys it exactly;"
          + " the lock makes recordings of transfers' first messages take turns across instances. Empty: no"
          + " deployment cap (and no lock).";
  public static final String SPEND_CAP_RECHECK_MS_CONFIG = "spend.cap.recheck.ms";
  private static final String SPEND_CAP_RECHECK_MS_DOC =
      "How long a wallet whose next transfer is held by a spend cap waits at most before trying it again, in ms:"
          + " an operator's release takes effect within about this long. Each try costs one wallet read from the TON"
          + " API. A wallet whose window frees up sooner tries then.";

  static {
    CONFIG
        .define(SPEND_CAP_WALLET_CONFIG, Type.STRING, "", spendCapValidator(), Importance.HIGH, SPEND_CAP_WALLET_DOC)
        .define(SPEND_CAP_DEPLOYMENT_CONFIG, Type.STRING, "", spendCapValidator(), Importance.HIGH,
            SPEND_CAP_DEPLOYMENT_DOC)
        .define(SPEND_CAP_RECHECK_MS_CONFIG, Type.LONG, 5_000L, Range.between(50L, 300_000L), Importance.LOW,
            SPEND_CAP_RECHECK_MS_DOC);
  }

  private static ConfigDef.Validator spendCapValidator() {
    return ConfigDef.LambdaValidator.with((name, value) -> {
      try {
        SpendCapList.parse(name, value == null ? "" : value.toString());
      } catch (IllegalArgumentException e) {
        throw new ConfigException(e.getMessage());
      }
    }, () -> "<window>:<nanotons>[,...], window 1m..31d in m, h or d; empty: none");
  }

  /** {@value #SPEND_CAP_WALLET_CONFIG} and {@value #SPEND_CAP_DEPLOYMENT_CONFIG}. */
  public SpendCaps spendCaps() {
    return new SpendCaps(SpendCapList.parse(SPEND_CAP_WALLET_CONFIG, getString(SPEND_CAP_WALLET_CONFIG)),
        SpendCapList.parse(SPEND_CAP_DEPLOYMENT_CONFIG, getString(SPEND_CAP_DEPLOYMENT_CONFIG)));
  }

  /** {@value #SPEND_CAP_RECHECK_MS_CONFIG}. */
  public Duration spendCapRecheck() {
    return Duration.ofMillis(getLong(SPEND_CAP_RECHECK_MS_CONFIG));
  }

  // ---- issue 26: jetton payouts, in a block of its own so keys merge cleanly ----
  public static final String JETTONS_CONFIG = "jettons";
  private static final String JETTONS_DOC =
      "The jettons (TEP-74 tokens, e.g. USDT) this deployment pays; a request for any other jetton master is"
          + " rejected at intake. Entries separated by ';', each the jetton's symbol then key=value fields:"
          + " master=<jetton master address> (required), decimals=<n> (required, for display), max.transfer=<base"
          + " units> (required: the largest transfer), max.request=<base units> (default 4 x max.transfer: the"
          + " largest sum of the jetton's transfers in one request), attach.nano=<nanotons> (default 50000000: TON"
          + " the wallet's message carries to its jetton wallet, paying both jetton wallets' fees and the forward;"
          + " the rest comes back as excesses), forward.nano=<nanotons> (default 1: TON forwarded to the recipient"
          + " with the transfer notification and the comment; 0: no notification). E.g. USDT"
          + " master=EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs decimals=6 max.transfer=10000000000."
          + " Empty: TON only.";

  static {
    CONFIG.define(JETTONS_CONFIG, Type.STRING, "", ConfigDef.LambdaValidator.with((name, value) -> {
      try {
        JettonCatalog.parse(name, value == null ? "" : value.toString());
      } catch (IllegalArgumentException e) {
        throw new ConfigException(e.getMessage());
      }
    }, () -> "SYMBOL master=<address> decimals=<n> max.transfer=<units> [...][; ...]; empty: TON only"),
        Importance.HIGH, JETTONS_DOC);
  }

  /** {@value #JETTONS_CONFIG}. */
  public JettonCatalog jettons() {
    return JettonCatalog.parse(JETTONS_CONFIG, getString(JETTONS_CONFIG));
  }

  // ---- Kafka client settings: kafka.<client key> passed to every Kafka client (KafkaClientSettings) ----
  private final KafkaClientSettings kafkaClients;

  public PayoutsConfig(Map<?, ?> values) {
    super(CONFIG, values, false);
    if (subwalletMin() > subwalletMax()) {
      throw new ConfigException(WALLET_SUBWALLET_MIN_CONFIG, subwalletMin(),
          "must not be above " + WALLET_SUBWALLET_MAX_CONFIG + " (" + subwalletMax() + ")");
    }
    tonApiProviders(false); // the URLs and the clients' limits, checked now; the key files are read when used
    if (tonNetwork().orElse(null) == TonNetwork.MAINNET && getBoolean(TON_TESTNET_CONFIG)) {
      throw new ConfigException(TON_TESTNET_CONFIG + "=true shows addresses in their testnet form, but "
          + TON_NETWORK_CONFIG + "=mainnet pays on mainnet, where intake refuses testnet-flagged addresses: remove "
          + TON_TESTNET_CONFIG + " (on mainnet and testnet the form follows " + TON_NETWORK_CONFIG + ")");
    }
    this.kafkaClients = KafkaClientSettings.from(originals(), CONFIG.names());
  }

  /**
   * Loads the file (when given), then applies {@code PAYOUTS_*} environment overrides. Unknown
   * keys in the file are an error: a typo in a payout service's configuration should stop it,
   * not be ignored.
   */
  public static PayoutsConfig load(Optional<Path> file, Map<String, String> env) {
    Map<String, Object> values = new HashMap<>();
    file.ifPresent(path -> values.putAll(readProperties(path)));
    for (String key : CONFIG.names()) {
      String fromEnv = env.get(envName(key));
      if (fromEnv != null) {
        values.put(key, fromEnv);
      }
    }
    putKafkaClientSettingsFromEnv(values, env);
    for (String key : values.keySet()) {
      if (!CONFIG.names().contains(key) && !key.startsWith(KafkaClientSettings.PREFIX)) {
        throw new ConfigException("unknown configuration key '" + key + "'" + file.map(f -> " in " + f).orElse(""));
      }
    }
    return new PayoutsConfig(values);
  }

  /**
   * Adds the {@code PAYOUTS_KAFKA_*} variables that name Kafka client settings; one that names no
   * key is an error, as an unknown key in the file is.
   */
  private static void putKafkaClientSettingsFromEnv(Map<String, Object> values, Map<String, String> env) {
    String providersKey = KafkaClientSettings.PREFIX + "config.providers";
    Optional<String> providers = Optional.ofNullable(env.get(envName(providersKey)))
        .or(() -> Optional.ofNullable(values.get(providersKey)).map(Object::toString));
    String prefix = envName(KafkaClientSettings.PREFIX);
    for (Map.Entry<String, String> variable : env.entrySet()) {
      String name = variable.getKey();
      if (!name.startsWith(prefix) || CONFIG.names().stream().anyMatch(key -> envName(key).equals(name))) {
        continue;
      }
      String key = KafkaClientSettings.keyOfEnv(name, providers).orElseThrow(() -> new ConfigException(
          "unknown environment variable " + name + ": it names no Kafka client setting (" + prefix
              + "<KEY> sets kafka.<key>, a Kafka producer, consumer, admin or Streams key, e.g. " + prefix
              + "SECURITY_PROTOCOL)"));
      values.put(key, variable.getValue());
    }
  }

  /** The environment variable that overrides {@code key}. */
  public static String envName(String key) {
    return ENV_PREFIX + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  private static Map<String, Object> readProperties(Path path) {
    Properties props = new Properties();
    try (InputStream in = Files.newInputStream(path)) {
      props.load(in);
    } catch (IOException e) {
      throw new ConfigException("cannot read configuration file " + path + ": " + e.getMessage());
    }
    Map<String, Object> values = new HashMap<>();
    props.forEach((k, v) -> values.put(k.toString().trim(), v.toString().trim()));
    return values;
  }

  private static String defaultStateDir() {
    return Path.of(System.getProperty("java.io.tmpdir"), "ton-payouts-state").toString();
  }

  public String bootstrapServers() {
    return getString(KAFKA_BOOTSTRAP_SERVERS_CONFIG);
  }

  /** The {@code kafka.*} client settings (TLS, SASL, config providers) every Kafka client of the process gets. */
  public KafkaClientSettings kafkaClients() {
    return kafkaClients;
  }

  public long subwalletMin() {
    return getLong(WALLET_SUBWALLET_MIN_CONFIG);
  }

  public long subwalletMax() {
    return getLong(WALLET_SUBWALLET_MAX_CONFIG);
  }

  public int workchain() {
    return getInt(WALLET_WORKCHAIN_CONFIG);
  }

  public Optional<Path> walletSecretFile() {
    String file = getString(WALLET_SECRET_FILE_CONFIG);
    return file.isBlank() ? Optional.empty() : Optional.of(Path.of(file));
  }

  /**
   * The payout wallets' key: from {@value #WALLET_SECRET_FILE_CONFIG}, else from the {@code TON_WALLET_*}
   * variables of {@code env} ({@code WalletSecrets}), the secret itself in the environment only with
   * {@value #WALLET_SECRET_INLINE_ALLOWED_CONFIG}.
   *
   * @throws ConfigException naming the variable or file and the fix, never the secret
   */
  public WalletKey walletKey(Map<String, String> env) {
    try {
      return walletSecretFile().map(WalletSecrets::fromFile).orElseGet(() -> WalletSecrets.fromEnvironment(env,
          getBoolean(WALLET_SECRET_INLINE_ALLOWED_CONFIG) ? WalletSecrets.Inline.ALLOWED : WalletSecrets.Inline.REFUSED));
    } catch (IllegalArgumentException e) {
      throw configException(e);
    }
  }

  public Duration validUntilTtl() {
    return Duration.ofSeconds(getInt(TRANSFER_TTL_SECONDS_CONFIG));
  }

  public Duration clockSkewMargin() {
    return Duration.ofSeconds(getInt(TRANSFER_CLOCK_SKEW_SECONDS_CONFIG));
  }

  public Duration seqnoFetchTimeout() {
    return Duration.ofMillis(getLong(TRANSFER_SEQNO_TIMEOUT_MS_CONFIG));
  }

  public Duration resendAfter() {
    return Duration.ofMillis(getLong(TRANSFER_RESEND_AFTER_MS_CONFIG));
  }

  public Duration resendInterval() {
    return Duration.ofMillis(getLong(TRANSFER_RESEND_INTERVAL_MS_CONFIG));
  }

  /** {@value #TRANSFER_MAX_AMOUNT_NANO_CONFIG}: the largest amount of one transfer. */
  public long transferMaxAmountNano() {
    return getLong(TRANSFER_MAX_AMOUNT_NANO_CONFIG);
  }

  /** {@value #REQUEST_MAX_TOTAL_NANO_CONFIG}: the largest sum of one request's transfers. */
  public long requestMaxTotalNano() {
    return getLong(REQUEST_MAX_TOTAL_NANO_CONFIG);
  }

  /** Whether comments may carry control, bidirectional and invisible characters ({@value #COMMENT_CONTROL_CHARACTERS_CONFIG}). */
  public boolean commentControlCharactersAllowed() {
    return COMMENT_CONTROL_ALLOW.equals(getString(COMMENT_CONTROL_CHARACTERS_CONFIG));
  }

  public Duration pollerInterval() {
    return Duration.ofMillis(getLong(POLLER_INTERVAL_MS_CONFIG));
  }

  public Duration pollerRoundTimeout() {
    return Duration.ofMillis(getLong(POLLER_ROUND_TIMEOUT_MS_CONFIG));
  }

  public int pollerFallbackRounds() {
    return getInt(POLLER_FALLBACK_ROUNDS_CONFIG);
  }

  public Duration pollerResolvedRetention() {
    return Duration.ofMillis(getLong(POLLER_RESOLVED_RETENTION_MS_CONFIG));
  }

  /**
   * Whether user-friendly addresses are shown in their testnet form: on testnet always, on mainnet
   * never, elsewhere as {@value #TON_TESTNET_CONFIG} says.
   */
  public boolean testnet() {
    return switch (tonNetwork().orElse(TonNetwork.DEVNET)) {
      case TESTNET -> true;
      case MAINNET -> false;
      case DEVNET -> getBoolean(TON_TESTNET_CONFIG);
    };
  }

  /** {@value #TON_NETWORK_CONFIG}: the network this deployment pays on, when it is set. */
  public Optional<TonNetwork> tonNetwork() {
    return TonNetwork.byName(getString(TON_NETWORK_CONFIG));
  }

  /**
   * {@value #TON_NETWORK_CONFIG}, which both apps require.
   *
   * @throws ConfigException when it is not set, saying which values it takes and why it matters
   */
  public TonNetwork requiredTonNetwork() {
    return tonNetwork().orElseThrow(() -> new ConfigException(TON_NETWORK_CONFIG + " is not set: set it to mainnet,"
        + " testnet or devnet, the network " + TON_API_URL_CONFIG + " (" + getString(TON_API_URL_CONFIG)
        + ") serves; the process checks the node's global id against it before it signs or reads anything"
        + (getBoolean(TON_TESTNET_CONFIG) ? " (" + TON_TESTNET_CONFIG + "=true only chooses how addresses are shown:"
            + " for testnet set " + TON_NETWORK_CONFIG + "=testnet)" : "")));
  }

  public String postgresUrl() {
    return getString(POSTGRES_URL_CONFIG);
  }

  public String postgresUser() {
    return getString(POSTGRES_USER_CONFIG);
  }

  /**
   * {@value #POSTGRES_PASSWORD_CONFIG}, else the content of {@value #POSTGRES_PASSWORD_FILE_CONFIG}; empty
   * when neither is set.
   *
   * @throws ConfigException when the file is missing, empty or readable by group or others
   */
  public String postgresPassword() {
    return secret(POSTGRES_PASSWORD_CONFIG, POSTGRES_PASSWORD_FILE_CONFIG).map(Secret::value).orElse("");
  }

  public int maxAttempts() {
    return getInt(TRANSFER_MAX_ATTEMPTS_CONFIG);
  }

  public Duration verdictTimeout() {
    return Duration.ofMillis(getLong(TRANSFER_VERDICT_TIMEOUT_MS_CONFIG));
  }

  public long feeReserveNano() {
    return getLong(TRANSFER_FEE_RESERVE_NANO_CONFIG);
  }

  public int walletBacklogMax() {
    return getInt(WALLET_BACKLOG_MAX_CONFIG);
  }

  public Duration dedupRetention() {
    return Duration.ofMillis(getLong(REQUESTS_DEDUP_RETENTION_MS_CONFIG));
  }

  public Duration batchIncompleteThreshold() {
    return Duration.ofMillis(getLong(BATCH_INCOMPLETE_THRESHOLD_MS_CONFIG));
  }

  public Duration bounceWindow() {
    return Duration.ofSeconds(getInt(POLLER_BOUNCE_WINDOW_SECONDS_CONFIG));
  }

  public Duration pollerFeedRetention() {
    return Duration.ofMillis(getLong(POLLER_FEED_RETENTION_MS_CONFIG));
  }

  public Duration pollerFeedClockMargin() {
    return Duration.ofMillis(getLong(POLLER_FEED_CLOCK_MARGIN_MS_CONFIG));
  }

  public int metricsPort() {
    return getInt(METRICS_PORT_CONFIG);
  }

  /** The static group instance id, when static membership is configured. */
  public Optional<String> groupInstanceId() {
    String id = getString(STREAMS_GROUP_INSTANCE_ID_CONFIG);
    return id.isBlank() ? Optional.empty() : Optional.of(id.trim());
  }

  /** {@value #STREAMS_SESSION_TIMEOUT_MS_CONFIG}: how long the group waits for a silent instance. */
  public Duration sessionTimeout() {
    return Duration.ofMillis(getInt(STREAMS_SESSION_TIMEOUT_MS_CONFIG));
  }

  /** {@value #ADMIN_PORT_CONFIG}: the admin API's port, 0 when it is off. */
  public int adminPort() {
    return getInt(ADMIN_PORT_CONFIG);
  }

  /**
   * The admin API's bearer token: {@value #ADMIN_TOKEN_CONFIG}, else the content of
   * {@value #ADMIN_TOKEN_FILE_CONFIG}; empty when neither is set.
   *
   * @throws ConfigException when the file cannot be read, or the token is shorter than
   *     {@value #ADMIN_TOKEN_MIN_LENGTH} characters (the message never shows the token)
   */
  public Optional<String> adminToken() {
    Optional<Secret> secret = secret(ADMIN_TOKEN_CONFIG, ADMIN_TOKEN_FILE_CONFIG);
    if (secret.isEmpty()) {
      return Optional.empty();
    }
    String token = secret.get().value().strip();
    if (token.length() < ADMIN_TOKEN_MIN_LENGTH) {
      throw new ConfigException("the admin token from " + secret.get().source() + " has " + token.length()
          + " characters; use at least " + ADMIN_TOKEN_MIN_LENGTH + " (e.g. openssl rand -hex 32)");
    }
    return Optional.of(token);
  }

  /**
   * The verdict keys as configured, {@value #VERDICT_MAC_KEYS_CONFIG}, else the content of
   * {@value #VERDICT_MAC_KEYS_FILE_CONFIG}, with where they came from; empty when neither is set.
   */
  public Optional<Secret> verdictMacKeys() {
    return secret(VERDICT_MAC_KEYS_CONFIG, VERDICT_MAC_KEYS_FILE_CONFIG);
  }

  /**
   * The secret {@code key} as given (the environment, normally), else the content of the file named
   * by {@code fileKey} (surrounding whitespace dropped), with where it came from; empty when neither
   * is set.
   *
   * @throws ConfigException when the file is missing, empty or readable by group or others (the
   *     message names the file and says {@code chmod 600}; it never shows the secret)
   */
  public Optional<Secret> secret(String key, String fileKey) {
    Password direct = getPassword(key);
    if (direct != null && !direct.value().isBlank()) {
      return Optional.of(new Secret(direct.value(), envName(key)));
    }
    String file = getString(fileKey);
    if (file.isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new Secret(SecretFiles.read(fileKey, Path.of(file)), fileKey + " " + file));
    } catch (IllegalArgumentException e) {
      throw configException(e);
    }
  }

  /** A refusal of the secret readers (which know no Kafka) as the ConfigException start-up turns into one line. */
  static ConfigException configException(IllegalArgumentException e) {
    ConfigException config = new ConfigException(e.getMessage());
    config.initCause(e);
    return config;
  }

  /** A secret's text and where it came from (for messages; the text is never printed). */
  public record Secret(String value, String source) {
    @Override
    public String toString() {
      return "Secret[from " + source + "]";
    }
  }

  /** {@value #OUTBOX_POLL_INTERVAL_MS_CONFIG}. */
  public Duration outboxPollInterval() {
    return Duration.ofMillis(getLong(OUTBOX_POLL_INTERVAL_MS_CONFIG));
  }

  /** {@value #METRICS_BIND_ADDRESS_CONFIG}: the address metrics.port listens on. */
  public String metricsBindAddress() {
    return getString(METRICS_BIND_ADDRESS_CONFIG).strip();
  }

  /** {@value #ADMIN_BIND_ADDRESS_CONFIG}: the address admin.port listens on. */
  public String adminBindAddress() {
    return getString(ADMIN_BIND_ADDRESS_CONFIG).strip();
  }

  /** {@value #ADMIN_TLS_KEYSTORE_FILE_CONFIG}, when the admin API serves HTTPS. */
  public Optional<Path> adminTlsKeyStoreFile() {
    String file = getString(ADMIN_TLS_KEYSTORE_FILE_CONFIG);
    return file.isBlank() ? Optional.empty() : Optional.of(Path.of(file.strip()));
  }

  /**
   * The admin key store's password: {@value #ADMIN_TLS_KEYSTORE_PASSWORD_CONFIG}, else the content of
   * {@value #ADMIN_TLS_KEYSTORE_PASSWORD_FILE_CONFIG} (read through {@link SecretFiles}).
   *
   * @throws ConfigException when neither is set, or the file is unreadable or loose (never shows the password)
   */
  public Secret adminTlsKeyStorePassword() {
    return secret(ADMIN_TLS_KEYSTORE_PASSWORD_CONFIG, ADMIN_TLS_KEYSTORE_PASSWORD_FILE_CONFIG)
        .map(password -> new Secret(password.value().strip(), password.source()))
        .orElseThrow(() -> new ConfigException(ADMIN_TLS_KEYSTORE_FILE_CONFIG + " is set but its password is not: set "
            + ADMIN_TLS_KEYSTORE_PASSWORD_FILE_CONFIG + " (a file readable by the service's user only) or "
            + envName(ADMIN_TLS_KEYSTORE_PASSWORD_CONFIG)));
  }

  /** {@value #HTTP_REQUEST_TIMEOUT_SECONDS_CONFIG}. */
  public Duration httpRequestTimeout() {
    return Duration.ofSeconds(getInt(HTTP_REQUEST_TIMEOUT_SECONDS_CONFIG));
  }

  /** {@value #HTTP_MAX_CONNECTIONS_CONFIG}. */
  public int httpMaxConnections() {
    return getInt(HTTP_MAX_CONNECTIONS_CONFIG);
  }

  /**
   * Settings of the TON HTTP API client, the key from {@value #TON_API_KEY_CONFIG} or
   * {@value #TON_API_KEY_FILE_CONFIG}; the key stays wrapped until the client puts it in a header.
   *
   * @throws ConfigException when the key file is missing, empty or readable by group or others
   */
  /**
   * The TON API client's settings: {@code ton.api.url}'s, or with {@code ton.api.urls} the first
   * (most preferred) provider's. Reads the key file.
   */
  public TonApiConfig tonApi() {
    return tonApiProviders().get(0).api();
  }

  /** One TON API provider: its name (the {@code provider} tag) and its client's settings. */
  public record TonApiProvider(String name, TonApiConfig api) {}

  /**
   * The TON API providers in order of preference: the ones of {@code ton.api.urls}, or the one of
   * {@code ton.api.url} (named by its host). Reads their key files.
   *
   * @throws ConfigException when both keys are set, the list is malformed or a key file is unsafe
   */
  public List<TonApiProvider> tonApiProviders() {
    return tonApiProviders(true);
  }

  /**
   * {@value #TON_API_PROVIDER_FAILURES_CONFIG}, {@value #TON_API_PROVIDER_SET_ASIDE_MS_CONFIG} and the
   * lag check's {@value #TON_API_PROVIDER_LAG_BLOCKS_CONFIG}, {@value #TON_API_PROVIDER_LAG_CHECK_MS_CONFIG}.
   */
  public ProviderPool.Settings providerPoolSettings() {
    return new ProviderPool.Settings(getInt(TON_API_PROVIDER_FAILURES_CONFIG),
        Duration.ofMillis(getLong(TON_API_PROVIDER_SET_ASIDE_MS_CONFIG)), getInt(TON_API_PROVIDER_LAG_BLOCKS_CONFIG),
        Duration.ofMillis(getLong(TON_API_PROVIDER_LAG_CHECK_MS_CONFIG)));
  }

  private List<TonApiProvider> tonApiProviders(boolean readKeys) {
    String urls = getString(TON_API_URLS_CONFIG).trim();
    if (urls.isEmpty()) {
      Optional<String> key = readKeys ? secret(TON_API_KEY_CONFIG, TON_API_KEY_FILE_CONFIG).map(Secret::value)
          : Optional.empty();
      TonApiConfig api = tonApi(TON_API_URL_CONFIG, getString(TON_API_URL_CONFIG), key, getDouble(TON_API_RPS_CONFIG));
      return List.of(new TonApiProvider(hostName(api.baseUrl()), api));
    }
    for (String single : List.of(TON_API_URL_CONFIG, TON_API_KEY_CONFIG, TON_API_KEY_FILE_CONFIG)) {
      Object given = originals().get(single);
      if (given != null && !given.toString().isBlank()) {
        throw new ConfigException(TON_API_URLS_CONFIG + " and " + single + " are both set: " + TON_API_URLS_CONFIG
            + " lists every provider with its own |key.file=, so remove " + single);
      }
    }
    List<TonApiProvider> providers = new ArrayList<>();
    for (TonApiProviderList.Entry entry : TonApiProviderList.parse(TON_API_URLS_CONFIG, urls)) {
      Optional<String> key = Optional.empty();
      if (readKeys && entry.keyFile().isPresent()) {
        try {
          key = Optional.of(SecretFiles.read(TON_API_URLS_CONFIG + " key.file of provider " + entry.name(),
              entry.keyFile().get()));
        } catch (IllegalArgumentException e) {
          throw configException(e);
        }
      }
      TonApiConfig api = tonApi(TON_API_URLS_CONFIG, entry.url().toString(), key,
          entry.rate().orElse(getDouble(TON_API_RPS_CONFIG)));
      providers.add(new TonApiProvider(entry.name(), api));
    }
    return List.copyOf(providers);
  }

  private static String hostName(URI url) {
    return url.getPort() > 0 ? url.getHost() + ":" + url.getPort() : url.getHost();
  }

  private TonApiConfig tonApi(String key, String url, Optional<String> apiKey, double requestsPerSecond) {
    try {
      URI baseUrl = URI.create(url);
      boolean plainHttpAllowed = getBoolean(TON_API_INSECURE_HTTP_ALLOWED_CONFIG);
      if (!plainHttpAllowed && TonApiConfig.isPlainHttpToRemoteHost(baseUrl)) {
        throw new ConfigException(key + " " + url + " is plain http to " + baseUrl.getHost()
            + ", which is not a loopback address: anyone on the path could read the API key and forge the answers"
            + " verdicts rest on. Use https://, or set " + TON_API_INSECURE_HTTP_ALLOWED_CONFIG + "=true for a network"
            + " nobody else can read or change");
      }
      TonApiConfig defaults = TonApiConfig.of(URI.create("http://127.0.0.1"));
      return new TonApiConfig(baseUrl, apiKey, requestsPerSecond,
          Duration.ofMillis(getLong(TON_API_TIMEOUT_MS_CONFIG)), defaults.maxReadAttempts(), defaults.retryBackoff(),
          getInt(TON_API_MAX_IN_FLIGHT_CONFIG), getLong(TON_API_MAX_RESPONSE_BYTES_CONFIG), plainHttpAllowed);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(key, url, e.getMessage());
    }
  }
}
