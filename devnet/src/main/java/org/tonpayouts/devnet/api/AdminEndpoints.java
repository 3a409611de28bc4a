package org.tonpayouts.devnet.api;

import static org.tonpayouts.devnet.api.ToncenterJson.JSON;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.tonpayouts.devnet.Faults;
import org.tonpayouts.devnet.chain.AccountView;
import org.tonpayouts.devnet.chain.BlockInfo;
import org.tonpayouts.devnet.chain.Chain;
import org.tonpayouts.devnet.chain.ChainStats;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.ton.address.TonAddress;

/**
 * devnet's own endpoints under {@code /admin/}: funding, fault settings (of the default node, or
 * of {@code ?node=<name>}), foreign transfers, the chain's bounce delay, a state summary, manual
 * blocks, and jettons ({@code jetton/...}: {@link JettonEndpoints}). Answers use
 * toncenter's envelope; fields are snake_case except the fault settings and counts, which are the
 * {@link Faults.Settings} and {@link Faults.Counts} records as JSON.
 */
final class AdminEndpoints {
  private final Chain chain;
  private final JettonEndpoints jettons;
  private final ApiNodes nodes;
  private final Duration blockInterval;
  private final ObjectMapper mapper;

  AdminEndpoints(Chain chain, JettonEndpoints jettons, ApiNodes nodes, Duration blockInterval, ObjectMapper mapper) {
    this.chain = chain;
    this.jettons = jettons;
    this.nodes = nodes;
    this.blockInterval = blockInterval;
    this.mapper = mapper;
  }

  JsonNode handle(String path, String httpMethod, Params params, JsonNode body) {
    boolean post = "POST".equalsIgnoreCase(httpMethod);
    return switch (path) {
      case "fund" -> requirePost(post, path, () -> fund(params));
      case "faults" -> post ? replaceFaults(params.optional("node"), body) : faultsJson(knownNode(params.optional("node")));
      case "foreign-transfer" -> requirePost(post, path, () -> foreignTransfer(params));
      case "bounce-delay" -> requirePost(post, path, () -> bounceDelay(params));
      case "state" -> state();
      case "block" -> requirePost(post, path, () -> block(chain.produceBlock()));
      case "jetton/deploy" -> requirePost(post, path, () -> jettons.deploy(params));
      case "jetton/mint" -> requirePost(post, path, () -> jettons.mint(params));
      case "jetton/status" -> requirePost(post, path, () -> jettons.status(params));
      case "jetton/wallet" -> jettons.wallet(params);
      default -> throw new ApiException(404, "Not Found");
    };
  }

  private static JsonNode requirePost(boolean post, String path, java.util.function.Supplier<JsonNode> action) {
    if (!post) {
      throw new ApiException(405, "Method Not Allowed: /admin/" + path + " takes POST");
    }
    return action.get();
  }

  private JsonNode fund(Params params) {
    TonAddress address = params.address("address");
    long amount = amount(params, "amount");
    JsonNode active = params.raw("active");
    DevnetTransaction tx;
    try {
      tx = chain.fund(address, amount, active != null && active.asBoolean());
    } catch (IllegalArgumentException e) {
      throw new ApiException(400, e.getMessage());
    }
    AccountView view = chain.account(address);
    ObjectNode n = account(view);
    n.set("transaction_id", ToncenterJson.transactionId(tx.lt(), tx.hash()));
    return n;
  }

  private JsonNode foreignTransfer(Params params) {
    TonAddress wallet = params.address("wallet");
    TonAddress destination = params.address("destination");
    long amount = amount(params, "amount");
    JsonNode bounce = params.raw("bounce");
    try {
      chain.foreignTransfer(wallet, destination, amount, params.optional("comment"), bounce != null && bounce.asBoolean());
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new ApiException(400, e.getMessage());
    }
    ObjectNode n = JSON.objectNode();
    n.put("queued", true);
    n.put("block", chain.lastBlock().seqno() + 1);
    return n;
  }

  /** {@code POST /admin/bounce-delay?blocks=N}: bounces arrive N blocks after the block that made them. */
  private JsonNode bounceDelay(Params params) {
    Long blocks = params.optionalLong("blocks");
    if (blocks == null) {
      throw ApiException.validation("field required: blocks");
    }
    if (blocks < 0 || blocks > 1_000) {
      throw new ApiException(400, "blocks must be 0..1000, got " + blocks);
    }
    chain.delayBounces(blocks.intValue());
    ObjectNode n = JSON.objectNode();
    n.put("bounce_delay_blocks", blocks);
    return n;
  }

  static long amount(Params params, String name) {
    Long amount = params.optionalLong(name);
    if (amount == null) {
      throw ApiException.validation("field required: " + name);
    }
    if (amount <= 0) {
      throw new ApiException(400, name + " must be positive nanotons, got " + amount);
    }
    return amount;
  }

  /** The node named by {@code ?node=} (absent: the default node); 404 when there is none. */
  private ApiNodes.Node knownNode(String name) {
    ApiNodes.Node node = nodes.find(name == null || name.isEmpty() ? ApiNodes.DEFAULT : name);
    if (node == null) {
      throw new ApiException(404, "Not Found: devnet has no node '" + name + "'");
    }
    return node;
  }

  /** Replaces a node's fault settings, creating the node when it is new. */
  private JsonNode replaceFaults(String name, JsonNode body) {
    if (body == null || !body.isObject()) {
      throw new ApiException(400, "POST /admin/faults takes the fault settings as a JSON object");
    }
    Faults.Settings settings;
    try {
      settings = mapper.treeToValue(body, Faults.Settings.class);
    } catch (JsonProcessingException e) {
      throw new ApiException(400, "invalid fault settings: " + e.getOriginalMessage());
    } catch (IllegalArgumentException e) {
      throw new ApiException(400, "invalid fault settings: " + e.getMessage());
    }
    ApiNodes.Node node;
    try {
      node = nodes.getOrCreate(name == null || name.isEmpty() ? ApiNodes.DEFAULT : name);
    } catch (IllegalArgumentException e) {
      throw new ApiException(400, e.getMessage());
    }
    node.faults().apply(settings);
    return faultsJson(node);
  }

  private JsonNode faultsJson(ApiNodes.Node node) {
    ObjectNode n = JSON.objectNode();
    n.put("node", node.name());
    n.put("api_path", ApiNodes.apiPath(node.name()));
    n.set("settings", mapper.valueToTree(node.faults().settings()));
    n.set("counts", mapper.valueToTree(node.faults().counts()));
    return n;
  }

  private JsonNode state() {
    BlockInfo last = chain.lastBlock();
    ChainStats stats = chain.stats();
    ObjectNode n = JSON.objectNode();
    n.put("masterchain_seqno", last.seqno());
    n.put("block_interval_ms", blockInterval.toMillis());
    n.put("pending", stats.pending());
    n.set("last_block", block(last));
    n.set("chain", mapper.valueToTree(stats));
    n.set("faults", faultsJson(nodes.defaultNode()));
    ArrayNode nodeList = n.putArray("nodes");
    for (ApiNodes.Node node : nodes.all()) {
      nodeList.add(faultsJson(node));
    }
    ArrayNode accounts = n.putArray("accounts");
    List<AccountView> views = chain.accounts();
    views.sort(Comparator.comparing(AccountView::lastTxLt).reversed());
    for (AccountView view : views) {
      accounts.add(account(view));
    }
    return n;
  }

  private static ObjectNode account(AccountView view) {
    ObjectNode n = JSON.objectNode();
    n.put("address", ToncenterJson.friendly(view.address()));
    n.put("raw", view.address().toRaw());
    n.put("state", view.state().name().toLowerCase());
    n.put("balance", Long.toString(view.balance()));
    n.put("wallet", view.isWallet());
    if (view.isWallet()) {
      n.put("seqno", view.wallet().seqno());
      n.put("subwallet_id", view.wallet().subwalletId());
    }
    if (view.isContract()) {
      n.put("contract", view.contract().kind());
    }
    n.put("last_transaction_lt", Long.toString(view.lastTxLt()));
    return n;
  }

  private static ObjectNode block(BlockInfo block) {
    ObjectNode n = JSON.objectNode();
    n.put("seqno", block.seqno());
    n.put("utime", block.utime());
    n.put("root_hash", block.rootHash());
    n.put("transactions", block.transactionCount());
    n.put("start_lt", Long.toString(block.startLt()));
    n.put("end_lt", Long.toString(block.endLt()));
    return n;
  }
}
