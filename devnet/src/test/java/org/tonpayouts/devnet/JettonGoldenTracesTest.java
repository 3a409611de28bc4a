package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.ton.ton4j.cell.Cell;
import org.ton.ton4j.cell.CellBuilder;
import org.ton.ton4j.cell.CellSlice;
import org.ton.ton4j.tlb.BouncePhaseNoFounds;
import org.ton.ton4j.tlb.BouncePhaseOk;
import org.ton.ton4j.tlb.ComputePhaseVM;
import org.ton.ton4j.tlb.Transaction;
import org.ton.ton4j.tlb.TransactionDescriptionOrdinary;
import org.tonpayouts.devnet.chain.AccountView;
import org.tonpayouts.devnet.chain.Chain;
import org.tonpayouts.devnet.chain.DevnetMessage;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.devnet.chain.jetton.JettonAdmin;
import org.tonpayouts.devnet.chain.jetton.JettonFlavor;
import org.tonpayouts.devnet.chain.jetton.JettonWalletView;
import org.tonpayouts.ton.address.TonAddress;

/**
 * devnet's jetton contracts against the real compiled ones: every scenario of
 * {@code vectors/jetton-traces.json} (made by tools/jetton-traces/generate.mjs, which runs the
 * code cells devnet ships in @ton/sandbox) is replayed on devnet with the same steps (funding,
 * the admin's deploy, mint and set_status messages, and the very external messages the script
 * signed for the WalletV4R2 owner, sent through sendBocReturnHash), and each step's transactions
 * are compared one by one, in order: accounts, in and out messages (source, destination,
 * bounce and bounced flags, StateInit hash, body hash: exact), exit codes, compute skipped or
 * not, aborted, bounce phase, and for the jetton contracts gas and total fees. Then the final
 * jetton balances, statuses and get-method answers (over toncenter's runGetMethod). Every
 * transaction BOC devnet wrote is also read back with ton4j's TL-B parser, whose reading of each
 * message must agree with devnet's ({@link Ton4jCrossCheck}).
 *
 * <p>What is not exact, and why: devnet keeps its flat fees for WalletV4R2 and plain accounts
 * ({@code Fees}: no import fee for external messages, a flat compute and forwarding fee), so
 * their TON balances differ from the sandbox's by up to {@link #WALLET_TON_TOLERANCE}; and the
 * {@code fwd_fee} a wallet's message carries is devnet's flat one, which only the contracts'
 * "enough TON?" checks read (the scenarios keep clear of those thresholds). Every message value
 * and every contract's TON balance is compared exactly: they follow from the contracts' gas and
 * the network's forwarding prices, which devnet reproduces.
 */
class JettonGoldenTracesTest {
  private static final JsonNode VECTORS = load("/vectors/jetton-traces.json");
  /** devnet's flat wallet fees against the real ones: the traces differ by up to 0.0045 TON (devnet charges no import fee). */
  private static final long WALLET_TON_TOLERANCE = 5_000_000L;

  @Test
  void shouldShareTheTracesConstants() {
    assertThat(Chain.FAUCET.toRaw()).isEqualTo(VECTORS.get("faucet").asText());
    assertThat(JettonAdmin.ADMIN.toRaw()).isEqualTo(VECTORS.get("admin").asText());
    JsonNode codes = VECTORS.get("codeHashes");
    assertThat(JettonFlavor.REFERENCE.walletCode().hashHex()).isEqualTo(codes.get("referenceWallet").asText());
    assertThat(JettonFlavor.REFERENCE.minterCode().hashHex()).isEqualTo(codes.get("referenceMinter").asText());
    assertThat(JettonFlavor.STABLECOIN.walletCode().hashHex()).isEqualTo(codes.get("stablecoinWallet").asText());
    assertThat(JettonFlavor.STABLECOIN.minterCode().hashHex()).isEqualTo(codes.get("stablecoinMinter").asText());
  }

  @TestFactory
  Stream<DynamicTest> shouldRunEveryScenarioAsTheRealContractsDid() {
    return stream(VECTORS.get("scenarios"))
        .map(s -> DynamicTest.dynamicTest(s.get("name").asText(), () -> new Replay(s).run()));
  }

  /** One scenario on a fresh devnet whose clock stands at the traces' time. */
  private static final class Replay {
    private final JsonNode scenario;
    private final String name;
    private final Map<String, String> roleOf = new HashMap<>();
    private final List<String> contracts = new ArrayList<>();

    Replay(JsonNode scenario) {
      this.scenario = scenario;
      this.name = scenario.get("name").asText();
      scenario.get("roles").fields().forEachRemaining(e -> {
        roleOf.put(e.getValue().asText(), e.getKey());
        if (e.getKey().equals("master") || e.getKey().endsWith("JettonWallet")) {
          contracts.add(e.getValue().asText());
        }
      });
    }

    void run() {
      Instant now = Instant.ofEpochSecond(VECTORS.get("now").asLong());
      try (Devnet devnet = Devnet.builder().blockInterval(Duration.ZERO).clock(ManualClock.fixedAt(now)).seed(5)
          .start()) {
        Http http = new Http(devnet);
        TonAddress master = TonAddress.parse(scenario.get("roles").get("master").asText());
        int index = 0;
        for (JsonNode step : scenario.get("steps")) {
          String label = name + " step " + index++ + " (" + step.get("kind").asText() + ")";
          long lt = devnet.lastLt();
          apply(devnet, http, master, step, label);
          List<DevnetTransaction> got = devnet.transactionsSince(lt);
          List<JsonNode> want = list(step.get("transactions"));
          assertThat(got).as("%s: transactions%n  devnet: %s", label, summary(got)).hasSize(want.size());
          for (int i = 0; i < want.size(); i++) {
            compare(label + " tx " + i, want.get(i), got.get(i));
          }
        }
        compareAccounts(devnet, master);
        compareGetMethods(http, master);
      }
    }

    private void apply(Devnet devnet, Http http, TonAddress master, JsonNode step, String label) {
      JettonAdmin admin = devnet.jettonAdmin();
      switch (step.get("kind").asText()) {
        case "fund" -> devnet.fund(address(step.get("address")), step.get("amount").asLong());
        case "deploy" -> assertThat(admin.deploy(JettonFlavor.of(step.get("flavor").asText()), step.get("uri").asText())
            .master()).as(label + ": master address").isEqualTo(master);
        case "mint" -> {
          JettonAdmin.Result minted = admin.mint(master, address(step.get("owner")),
              new BigInteger(step.get("amount").asText()), step.get("queryId").asLong());
          assertThat(minted.wallet().address()).as(label + ": derived jetton wallet")
              .isEqualTo(address(step.get("jettonWallet")));
        }
        case "status" -> admin.setStatus(master, address(step.get("owner")), step.get("status").asInt(),
            step.get("queryId").asLong());
        case "external" -> {
          Http.Response sent = http.post("sendBocReturnHash", Map.of("boc", step.get("boc").asText()));
          assertThat(sent.status()).as(label + ": sendBoc " + sent.body()).isEqualTo(200);
          devnet.produceBlock();
        }
        default -> throw new IllegalArgumentException("unknown step " + step);
      }
    }

    private void compare(String label, JsonNode want, DevnetTransaction got) {
      String account = want.get("account").asText();
      String as = label + " on " + role(account);
      assertThat(got.account().toRaw()).as(as + ": account").isEqualTo(account);
      compareMessage(as + ": in_msg", want.get("in"), got.inMsg(), true);
      List<JsonNode> outs = list(want.get("out"));
      assertThat(got.outMsgs()).as(as + ": out_msgs " + got.outMsgs()).hasSize(outs.size());
      for (int i = 0; i < outs.size(); i++) {
        compareMessage(as + ": out_msg " + i, outs.get(i), got.outMsgs().get(i), true);
      }

      Transaction tx = Transaction.deserialize(CellSlice.beginParse(Cell.fromBoc(Base64.getDecoder().decode(got.data()))));
      Ton4jCrossCheck.messagesAgree(as, got, tx);
      TransactionDescriptionOrdinary d = (TransactionDescriptionOrdinary) tx.getDescription();
      assertThat(d.isAborted()).as(as + ": aborted (" + got.description() + ")").isEqualTo(want.get("aborted").asBoolean());
      boolean skipped = want.get("computeSkipped").asBoolean();
      assertThat(d.getComputePhase() instanceof ComputePhaseVM).as(as + ": compute phase ran").isEqualTo(!skipped);
      if (d.getComputePhase() instanceof ComputePhaseVM vm) {
        assertThat(vm.isSuccess()).as(as + ": compute success (" + got.description() + ")")
            .isEqualTo(want.get("computeSuccess").asBoolean());
        assertThat(vm.getDetails().getExitCode()).as(as + ": exit code (" + got.description() + ")")
            .isEqualTo(want.get("exitCode").asLong());
        if (contracts.contains(account)) {
          assertThat(vm.getDetails().getGasUsed().longValue()).as(as + ": gas used").isEqualTo(want.get("gasUsed").asLong());
          assertThat(tx.getTotalFees().getCoins().longValue()).as(as + ": total fees")
              .isEqualTo(want.get("totalFees").asLong());
        }
      }
      String bounce = want.get("bounce").isNull() ? null : want.get("bounce").asText();
      if (bounce == null) {
        assertThat(d.getBouncePhase()).as(as + ": bounce phase").isNull();
      } else {
        assertThat(d.getBouncePhase()).as(as + ": bounce phase " + bounce)
            .isInstanceOf(bounce.equals("ok") ? BouncePhaseOk.class : BouncePhaseNoFounds.class);
      }
    }

    private void compareMessage(String as, JsonNode want, DevnetMessage got, boolean exactValue) {
      String type = want.get("type").asText();
      assertThat(got.external()).as(as + ": external").isEqualTo(type.equals("external-in"));
      assertThat(got.destination().toRaw()).as(as + ": destination").isEqualTo(want.get("destination").asText());
      assertThat(got.body().hashHex()).as(as + ": body (" + got + ")").isEqualTo(want.get("bodyHash").asText());
      String init = want.get("init").isNull() ? null : want.get("init").asText();
      assertThat(got.init() == null ? null : got.init().hashHex()).as(as + ": StateInit").isEqualTo(init);
      if (type.equals("internal")) {
        assertThat(got.source().toRaw()).as(as + ": source").isEqualTo(want.get("source").asText());
        assertThat(got.bounce()).as(as + ": bounce flag").isEqualTo(want.get("bounce").asBoolean());
        assertThat(got.bounced()).as(as + ": bounced flag").isEqualTo(want.get("bounced").asBoolean());
        assertThat(got.value()).as(as + ": value").isEqualTo(want.get("value").asLong());
      }
    }

    private void compareAccounts(Devnet devnet, TonAddress master) {
      for (JsonNode account : scenario.get("accounts")) {
        String role = account.get("role").asText();
        TonAddress address = address(account.get("address"));
        AccountView view = devnet.account(address);
        String as = name + ": " + role;
        long want = account.get("balance").asLong();
        if (contracts.contains(address.toRaw())) {
          assertThat(view.balance()).as(as + ": TON balance").isEqualTo(want);
        } else {
          assertThat(view.balance()).as(as + ": TON balance within " + WALLET_TON_TOLERANCE + " of " + want)
              .isBetween(want - WALLET_TON_TOLERANCE, want + WALLET_TON_TOLERANCE);
        }
        assertThat(view.state().toncenterName()).as(as + ": state")
            .isEqualTo(account.get("status").asText().equals("active") ? "active" : "uninitialized");
        if (account.has("jettonBalance")) {
          JettonWalletView wallet = devnet.jettonWallet(master, address(account.at("/walletData/owner")));
          assertThat(wallet.address()).as(as + ": derived address").isEqualTo(address);
          assertThat(wallet.balance()).as(as + ": jetton balance").isEqualTo(new BigInteger(account.get("jettonBalance").asText()));
          assertThat(wallet.status()).as(as + ": status").isEqualTo(account.path("jettonStatus").asInt(0));
        }
      }
    }

    /** toncenter's runGetMethod on devnet answers what the real contracts answered. */
    private void compareGetMethods(Http http, TonAddress master) {
      JsonNode want = scenario.get("getMethods");
      String friendlyMaster = master.toFriendly(true, false);
      JsonNode data = runGetMethod(http, friendlyMaster, "get_jetton_data", List.of());
      JsonNode jetton = want.get("jettonData");
      assertThat(number(data.get(0))).as(name + ": total supply").isEqualTo(new BigInteger(jetton.get("totalSupply").asText()));
      assertThat(number(data.get(1))).as(name + ": mintable").isEqualTo(BigInteger.valueOf(jetton.get("mintable").asLong()));
      assertThat(address(cell(data.get(2)))).as(name + ": admin").isEqualTo(jetton.get("admin").asText());
      assertThat(hash(cell(data.get(3)))).as(name + ": content").isEqualTo(jetton.get("contentHash").asText());
      assertThat(hash(cell(data.get(4)))).as(name + ": wallet code").isEqualTo(jetton.get("walletCodeHash").asText());
      want.get("walletAddresses").fields().forEachRemaining(e -> {
        Cell owner = CellBuilder.beginCell().storeAddress(org.ton.ton4j.address.Address.of(e.getKey())).endCell();
        JsonNode answer = runGetMethod(http, friendlyMaster, "get_wallet_address",
            List.of(List.of("tvm.Slice", Base64.getEncoder().encodeToString(owner.toBoc()))));
        assertThat(address(cell(answer.get(0)))).as(name + ": get_wallet_address(" + role(e.getKey()) + ")")
            .isEqualTo(e.getValue().asText());
      });
      for (JsonNode account : scenario.get("accounts")) {
        if (!account.has("walletData")) {
          continue;
        }
        JsonNode walletData = runGetMethod(http, account.get("address").asText(), "get_wallet_data", List.of());
        String as = name + ": get_wallet_data of " + account.get("role").asText();
        assertThat(number(walletData.get(0))).as(as).isEqualTo(new BigInteger(account.get("jettonBalance").asText()));
        assertThat(address(cell(walletData.get(1)))).as(as + " owner").isEqualTo(account.at("/walletData/owner").asText());
        assertThat(address(cell(walletData.get(2)))).as(as + " master").isEqualTo(account.at("/walletData/master").asText());
        assertThat(hash(cell(walletData.get(3)))).as(as + " code").isEqualTo(account.at("/walletData/codeHash").asText());
      }
    }

    private String role(String raw) {
      return roleOf.getOrDefault(raw, raw);
    }
  }

  private static JsonNode runGetMethod(Http http, String address, String method, List<?> stack) {
    Http.Response r = http.post("runGetMethod", Map.of("address", address, "method", method, "stack", stack));
    assertThat(r.status()).as(method + " " + r.body()).isEqualTo(200);
    assertThat(r.result().get("exit_code").asInt()).as(method + " exit code " + r.body()).isZero();
    return r.result().get("stack");
  }

  /** A {@code ["num", "0x.."]} entry, read as toncenter clients read it. */
  private static BigInteger number(JsonNode entry) {
    assertThat(entry.get(0).asText()).isEqualTo("num");
    String v = entry.get(1).asText();
    boolean negative = v.startsWith("-");
    BigInteger n = new BigInteger(v.substring(negative ? 3 : 2), 16);
    return negative ? n.negate() : n;
  }

  /** A {@code ["cell", {"bytes": ...}]} entry, parsed by ton4j (not by devnet's own cell code). */
  private static Cell cell(JsonNode entry) {
    assertThat(entry.get(0).asText()).isEqualTo("cell");
    return Cell.fromBoc(Base64.getDecoder().decode(entry.get(1).get("bytes").asText()));
  }

  private static String address(Cell cell) {
    return CellSlice.beginParse(cell).loadAddress().toRaw();
  }

  private static String hash(Cell cell) {
    return HexFormat.of().formatHex(CellBuilder.beginCell().storeCell(cell).endCell().getHash());
  }

  private static TonAddress address(JsonNode raw) {
    return TonAddress.parse(raw.asText());
  }

  private static String summary(List<DevnetTransaction> txs) {
    StringBuilder b = new StringBuilder();
    for (DevnetTransaction tx : txs) {
      b.append("\n    ").append(tx.account().toRaw(), 0, 12).append(' ').append(tx.description());
    }
    return b.toString();
  }

  private static List<JsonNode> list(JsonNode array) {
    return StreamSupport.stream(array.spliterator(), false).toList();
  }

  private static Stream<JsonNode> stream(JsonNode array) {
    return StreamSupport.stream(array.spliterator(), false);
  }

  private static JsonNode load(String resource) {
    try (InputStream in = JettonGoldenTracesTest.class.getResourceAsStream(resource)) {
      return Http.JSON.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
