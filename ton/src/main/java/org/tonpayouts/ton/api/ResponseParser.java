package org.tonpayouts.ton.api;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.tonpayouts.ton.address.InvalidAddressException;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.CellReader;
import org.tonpayouts.ton.cell.TonCell;

/**
 * Turns toncenter API v2 answers into our records and errors: unwraps the
 * {@code {"ok":...,"result"|"error":...,"code":N}} envelope, classifies failures, converts base64
 * hashes to hex and accepts numbers written as strings or as JSON numbers.
 *
 * <p>Server texts are scrubbed of the API key before they reach an exception, because some
 * proxies echo request details back.
 */
final class ResponseParser {
  private static final int MAX_TEXT = 1000;
  private static final Pattern EXIT_CODE = Pattern.compile("exit[_ ]?code\\s*[=:]\\s*(-?\\d+)", Pattern.CASE_INSENSITIVE);
  private static final Pattern DUPLICATE_SEQNO = Pattern.compile("duplicate msg_seqno\\s*(\\d+)?", Pattern.CASE_INSENSITIVE);
  private static final Pattern NOT_ACCEPTED = Pattern.compile(
      "cannot apply external message|external message was not accepted|inbound external message rejected",
      Pattern.CASE_INSENSITIVE);
  /**
   * A block beyond the node's view: the node's validator manager adds "(last known masterchain
   * block: M)" for a masterchain block and "(possibly out of sync: ...)" for a shard block above
   * its shard client's top; "is not applied" is a block received but not applied yet. Without
   * them, NOTREADY means a block the node dropped or never had ("seqno not in db"): not a wait.
   */
  private static final Pattern BLOCK_NOT_READY = Pattern.compile(
      "LITE_SERVER_NOTREADY.*(last known masterchain block|possibly out of sync|is not applied)",
      Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

  private final ObjectMapper mapper;
  private final Optional<String> apiKey;

  ResponseParser(ObjectMapper mapper, Optional<String> apiKey) {
    this.mapper = mapper;
    this.apiKey = apiKey;
  }

  // ---------------------------------------------------------------- envelope

  /**
   * The {@code result} of a successful answer; otherwise throws the matching
   * {@link TonApiException}.
   *
   * @param send       true for sendBoc-like methods: rejections and "maybe delivered" apply
   * @param retryAfter the {@code Retry-After} header, if any
   */
  JsonNode unwrap(String method, int status, byte[] body, Optional<String> retryAfter, boolean send) {
    JsonNode root = parseOrNull(method, status, body, send);
    boolean success = status >= 200 && status < 300;
    if (success && root != null && root.path("ok").asBoolean(false)) {
      JsonNode result = root.get("result");
      if (result == null || result.isNull()) {
        throw new UnexpectedResponseException(method, "ok answer without result");
      }
      return result;
    }
    Integer code = root != null && root.path("code").canConvertToInt() ? root.get("code").asInt() : null;
    String text = errorText(root, body);
    if (success && (root == null || !root.has("ok"))) {
      throw new UnexpectedResponseException(method, "HTTP " + status + " without a toncenter envelope: " + text);
    }
    int effective = success && code != null ? code : status;
    if (effective == 429 || (code != null && code == 429)) {
      throw new RateLimitedException(method, status, text, retryAfter.flatMap(ResponseParser::parseRetryAfter).orElse(null));
    }
    if (send && isRejection(text)) {
      Matcher duplicate = DUPLICATE_SEQNO.matcher(text);
      boolean isDuplicate = duplicate.find();
      Long seqno = isDuplicate && duplicate.group(1) != null ? Long.valueOf(duplicate.group(1)) : null;
      throw new MessageRejectedException(method, status, text, exitCode(text), isDuplicate, seqno);
    }
    if (effective == 404) {
      throw new NotFoundException(method, status, text);
    }
    if (!send && BLOCK_NOT_READY.matcher(text).find()) {
      throw new BlockNotReadyException(method, status, text);
    }
    throw new ApiErrorException(method, status, code, text, send && effective >= 500);
  }

  /**
   * The answer's JSON object; null when it is not one (an error page, a truncated answer). An
   * answer beyond the mapper's read constraints (too deep, a number too long) is refused.
   */
  private JsonNode parseOrNull(String method, int status, byte[] body, boolean send) {
    if (body == null || body.length == 0) {
      return null;
    }
    try {
      JsonNode node = mapper.readTree(body);
      return node != null && node.isObject() ? node : null;
    } catch (StreamConstraintsException e) {
      throw new RefusedAnswerException(method, status, "the answer breaks the client's JSON limits: "
          + e.getOriginalMessage(), e, send);
    } catch (IOException e) {
      return null;
    }
  }

  /** {@code error}, else {@code result} (seen on 429), else {@code detail}/{@code message}, else the body. */
  private String errorText(JsonNode root, byte[] body) {
    String text = null;
    if (root != null) {
      for (String field : new String[] {"error", "result", "detail", "message"}) {
        JsonNode n = root.get(field);
        if (n != null && !n.isNull()) {
          text = n.isTextual() ? n.asText() : n.toString();
          break;
        }
      }
    }
    if (text == null) {
      text = body == null || body.length == 0 ? "(empty body)" : new String(body, StandardCharsets.UTF_8);
    }
    return scrub(text);
  }

  /** Removes the API key from a server text and bounds its length. */
  String scrub(String text) {
    String s = text;
    if (apiKey.isPresent()) {
      s = s.replace(apiKey.get(), "<api-key>");
    }
    s = s.strip();
    return s.length() > MAX_TEXT ? s.substring(0, MAX_TEXT) + "..." : s;
  }

  static boolean isRejection(String text) {
    return EXIT_CODE.matcher(text).find() || DUPLICATE_SEQNO.matcher(text).find() || NOT_ACCEPTED.matcher(text).find();
  }

  static Integer exitCode(String text) {
    Matcher m = EXIT_CODE.matcher(text);
    return m.find() ? Integer.valueOf(m.group(1)) : null;
  }

  static Optional<Duration> parseRetryAfter(String header) {
    try {
      long seconds = Long.parseLong(header.trim());
      return seconds >= 0 ? Optional.of(Duration.ofSeconds(seconds)) : Optional.empty();
    } catch (NumberFormatException e) {
      return Optional.empty(); // an HTTP date: the backoff applies instead
    }
  }

  // ---------------------------------------------------------------- results

  WalletInfo walletInfo(String method, JsonNode r) {
    return new WalletInfo(
        r.path("wallet").asBoolean(false),
        optLong(method, r, "balance", 0L),
        textOrNull(r.get("account_state")),
        optLong(method, r, "seqno", null),
        optLong(method, r, "wallet_id", null),
        textOrNull(r.get("wallet_type")),
        lastTransaction(method, r.get("last_transaction_id")));
  }

  AddressInfo addressInfo(String method, JsonNode r) {
    return new AddressInfo(
        optLong(method, r, "balance", 0L),
        stateOf(r),
        emptyToNull(textOrNull(r.get("code"))),
        emptyToNull(textOrNull(r.get("data"))),
        lastTransaction(method, r.get("last_transaction_id")),
        optLong(method, r, "sync_utime", 0L));
  }

  /** toncenter adds {@code state}; a bare {@code raw.fullAccountState} is judged like the server does. */
  private static String stateOf(JsonNode r) {
    String state = textOrNull(r.get("state"));
    if (state != null) {
      return state;
    }
    if (emptyToNull(textOrNull(r.get("code"))) != null) {
      return "active";
    }
    return emptyToNull(textOrNull(r.get("frozen_hash"))) != null ? "frozen" : "uninitialized";
  }

  MasterchainInfo masterchainInfo(String method, JsonNode r) {
    JsonNode last = r.get("last");
    if (last == null || !last.isObject()) {
      throw new UnexpectedResponseException(method, "no 'last' block in answer");
    }
    return new MasterchainInfo(
        (int) reqLong(method, last, "workchain"),
        textOrNull(last.get("shard")),
        reqLong(method, last, "seqno"),
        hash(method, last.get("root_hash")),
        hash(method, last.get("file_hash")));
  }

  /**
   * {@code configInfo}: one configuration parameter's cell, the BOC in {@code config.bytes}
   * ({@code tvm.cell}).
   */
  TonCell configParam(String method, JsonNode r) {
    String boc = textOrNull(r.path("config").get("bytes"));
    if (boc == null || boc.isEmpty()) {
      throw new UnexpectedResponseException(method, "no 'config.bytes' cell in answer (a parameter the node lacks?)");
    }
    try {
      return TonCell.fromBase64(boc);
    } catch (IllegalArgumentException e) {
      throw new UnexpectedResponseException(method, "config.bytes is not a cell BOC: " + e.getMessage(), e);
    }
  }

  /** Configuration parameter 19, {@code _ global_id:int32 = ConfigParam 19;}: the network's global id. */
  int globalId(String method, JsonNode r) {
    CellReader cell = configParam(method, r).parse();
    if (cell.remainingBits() < 32) {
      throw new UnexpectedResponseException(method, "config parameter 19 has " + cell.remainingBits()
          + " bits; its global_id is an int32");
    }
    return (int) cell.loadInt(32);
  }

  /** {@code blocks.shards}: the newest block of every shard as of one masterchain block. */
  List<BlockId> shards(String method, JsonNode r) {
    JsonNode shards = r.get("shards");
    if (shards == null || !shards.isArray()) {
      throw new UnexpectedResponseException(method, "no 'shards' array in answer");
    }
    List<BlockId> out = new ArrayList<>(shards.size());
    for (JsonNode id : shards) {
      out.add(blockId(method, id));
    }
    return out;
  }

  /**
   * {@code blocks.transactionsExt}: one page of a block's transactions. Its messages name their
   * source and destination as {@code accountAddress} objects (not strings as in
   * {@code getTransactions}) and carry no decoded {@code message}; {@link #transaction} reads both.
   */
  BlockTransactions blockTransactions(String method, JsonNode r, BlockId asked) {
    BlockId block = blockId(method, r.get("id"));
    if (block.workchain() != asked.workchain() || block.seqno() != asked.seqno()) {
      throw new UnexpectedResponseException(method, "asked for block " + asked + ", got " + block);
    }
    JsonNode txs = r.get("transactions");
    if (txs == null || !txs.isArray()) {
      throw new UnexpectedResponseException(method, "no 'transactions' array in answer");
    }
    List<ChainTransaction> out = new ArrayList<>(txs.size());
    for (JsonNode tx : txs) {
      ChainTransaction t = transaction(method, tx, null);
      if (t.account() == null) {
        throw new UnexpectedResponseException(method, "block transaction without 'account' or 'address'");
      }
      out.add(t);
    }
    JsonNode incomplete = r.get("incomplete");
    if (incomplete == null || !incomplete.isBoolean()) {
      throw new UnexpectedResponseException(method, "no boolean 'incomplete' in answer");
    }
    return new BlockTransactions(block, out, incomplete.asBoolean());
  }

  /** A {@code ton.blockIdExt}: shard as a signed 64-bit number (string or number), hashes base64. */
  BlockId blockId(String method, JsonNode n) {
    if (n == null || !n.isObject()) {
      throw new UnexpectedResponseException(method, "expected a ton.blockIdExt, got " + n);
    }
    try {
      return new BlockId(
          (int) reqLong(method, n, "workchain"),
          reqLong(method, n, "shard"),
          reqLong(method, n, "seqno"),
          hash(method, n.get("root_hash")),
          hash(method, n.get("file_hash")));
    } catch (IllegalArgumentException e) {
      throw new UnexpectedResponseException(method, "bad block id " + n + ": " + e.getMessage(), e);
    }
  }

  SentMessage sentMessage(String method, JsonNode r) {
    return new SentMessage(hash(method, r.get("hash")), hash(method, r.get("hash_norm")));
  }

  GetMethodResult getMethodResult(String method, JsonNode r) {
    List<GetMethodResult.StackEntry> stack = new ArrayList<>();
    for (JsonNode item : r.path("stack")) {
      if (item.isArray() && item.size() >= 1) {
        JsonNode v = item.size() > 1 ? item.get(1) : null;
        stack.add(new GetMethodResult.StackEntry(item.get(0).asText(), v == null ? null : v.isValueNode() ? v.asText() : v.toString()));
      }
    }
    return new GetMethodResult((int) optLong(method, r, "exit_code", 0L).longValue(), optLong(method, r, "gas_used", 0L), stack);
  }

  List<ChainTransaction> transactions(String method, JsonNode r, TonAddress queried) {
    if (!r.isArray()) {
      // getTransactionsStd-like servers wrap the list
      JsonNode inner = r.get("transactions");
      if (inner == null || !inner.isArray()) {
        throw new UnexpectedResponseException(method, "expected an array of transactions");
      }
      r = inner;
    }
    List<ChainTransaction> out = new ArrayList<>(r.size());
    for (JsonNode tx : r) {
      out.add(transaction(method, tx, queried));
    }
    return out;
  }

  ChainTransaction transaction(String method, JsonNode tx, TonAddress queried) {
    TonAddress account = address(method, tx.get("account"));
    if (account == null) {
      account = address(method, tx.get("address"));
    }
    TransactionId id = transactionId(method, tx.get("transaction_id"));
    if (id == null) {
      throw new UnexpectedResponseException(method, "transaction without transaction_id");
    }
    JsonNode in = tx.get("in_msg");
    JsonNode outMsgs = tx.get("out_msgs");
    if (outMsgs == null || !outMsgs.isArray()) {
      // a verdict of "sent nothing" (a skipped send: FAILED) rests on this list: a missing one is a
      // bad answer, never an empty list
      throw new UnexpectedResponseException(method, "transaction " + id.lt() + ":" + id.hash()
          + (outMsgs == null ? " without out_msgs" : " with out_msgs that is not an array"));
    }
    List<ChainMessage> outs = new ArrayList<>(outMsgs.size());
    for (JsonNode m : outMsgs) {
      outs.add(message(method, m));
    }
    return new ChainTransaction(
        account != null ? account : queried,
        id,
        optLong(method, tx, "utime", 0L),
        optLong(method, tx, "fee", 0L),
        optLong(method, tx, "storage_fee", 0L),
        optLong(method, tx, "other_fee", 0L),
        in == null || in.isNull() || in.isEmpty() ? null : message(method, in),
        outs,
        emptyToNull(textOrNull(tx.get("data"))));
  }

  ChainMessage message(String method, JsonNode m) {
    JsonNode data = m.path("msg_data");
    String type = data.path("@type").asText("");
    String body = null;
    String initState = null;
    String comment = null;
    switch (type) {
      case "msg.dataRaw" -> {
        body = emptyToNull(textOrNull(data.get("body")));
        initState = emptyToNull(textOrNull(data.get("init_state")));
        comment = Comments.fromBodyBoc(body);
      }
      case "msg.dataText" -> comment = textComment(m, data);
      default -> {
        // encrypted or unknown kinds: no readable comment
      }
    }
    return new ChainMessage(
        hash(method, m.get("hash")),
        address(method, m.get("source")),
        address(method, m.get("destination")),
        optLong(method, m, "value", 0L),
        optLong(method, m, "fwd_fee", 0L),
        optLong(method, m, "ihr_fee", 0L),
        optLong(method, m, "created_lt", 0L),
        hash(method, m.get("body_hash")),
        emptyToNull(comment),
        body,
        initState);
  }

  /**
   * {@code msg.dataText.text} is the comment's bytes in base64; both toncenter servers also put
   * the decoded text in {@code message}, which wins when present.
   */
  private static String textComment(JsonNode m, JsonNode data) {
    JsonNode decoded = m.get("message");
    if (decoded != null && decoded.isTextual()) {
      return decoded.asText();
    }
    String text = textOrNull(data.get("text"));
    if (text == null || text.isEmpty()) {
      return null;
    }
    try {
      String s = Comments.decodeUtf8(Hashes.decodeBase64(text));
      return s != null ? s : text;
    } catch (IllegalArgumentException e) {
      return text;
    }
  }

  // ---------------------------------------------------------------- fields

  private TransactionId lastTransaction(String method, JsonNode n) {
    TransactionId id = transactionId(method, n);
    // an account that never had a transaction reports lt 0 and an all-zero hash
    return id == null || id.lt() == 0 ? null : id;
  }

  private TransactionId transactionId(String method, JsonNode n) {
    if (n == null || n.isNull() || !n.isObject()) {
      return null;
    }
    String hash = hash(method, n.get("hash"));
    return new TransactionId(reqLong(method, n, "lt"), hash == null ? "" : hash);
  }

  private static String hash(String method, JsonNode n) {
    try {
      return Hashes.toHex(textOrNull(n));
    } catch (IllegalArgumentException e) {
      throw new UnexpectedResponseException(method, "bad hash: " + e.getMessage(), e);
    }
  }

  private static TonAddress address(String method, JsonNode n) {
    String text = n != null && n.isObject() ? textOrNull(n.get("account_address")) : textOrNull(n);
    if (text == null || text.isBlank()) {
      return null;
    }
    try {
      return TonAddress.parse(text);
    } catch (InvalidAddressException e) {
      throw new UnexpectedResponseException(method, "bad address: " + e.getMessage(), e);
    }
  }

  private static long reqLong(String method, JsonNode parent, String field) {
    Long v = optLong(method, parent, field, null);
    if (v == null) {
      throw new UnexpectedResponseException(method, "missing number '" + field + "'");
    }
    return v;
  }

  /** A number that may arrive as a JSON number or as a string; {@code fallback} when absent. */
  private static Long optLong(String method, JsonNode parent, String field, Long fallback) {
    JsonNode n = parent == null ? null : parent.get(field);
    if (n == null || n.isNull()) {
      return fallback;
    }
    if (n.isIntegralNumber() && n.canConvertToLong()) {
      return n.asLong();
    }
    if (n.isTextual()) {
      String s = n.asText().trim();
      if (s.isEmpty()) {
        return fallback;
      }
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException e) {
        throw new UnexpectedResponseException(method, "'" + field + "' is not a 64-bit integer: '" + s + "'", e);
      }
    }
    throw new UnexpectedResponseException(method, "'" + field + "' is not a 64-bit integer: " + n);
  }

  private static String textOrNull(JsonNode n) {
    return n == null || n.isNull() || n.isContainerNode() ? null : n.asText();
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
