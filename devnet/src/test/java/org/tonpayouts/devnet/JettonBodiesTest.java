package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.Boc;
import org.tonpayouts.ton.cell.MalformedCellException;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.jetton.JettonMessage;
import org.tonpayouts.ton.jetton.JettonOps;
import org.tonpayouts.ton.jetton.JettonTransfer;

/**
 * The {@code ton} module's TEP-74 codec ({@link JettonTransfer}, {@link JettonMessage}) against
 * the bodies the real contracts and @ton/core made in the golden traces
 * ({@code tools/jetton-traces}): the service reads what the chain carries, and what it writes is
 * what the jetton wallet reads.
 */
class JettonBodiesTest {
  private static final JsonNode VECTORS = load("/vectors/jetton-traces.json");

  /** Every external step's transfer body, as our wallet would hand it to its jetton wallet. */
  @Test
  void shouldReadEveryTransferOfTheTracesAndWriteTheSameFields() {
    int read = 0;
    int sameBytes = 0;
    for (JsonNode scenario : VECTORS.get("scenarios")) {
      for (JsonNode step : scenario.get("steps")) {
        if (!"external".equals(step.get("kind").asText())) {
          continue;
        }
        JsonNode walletTx = step.get("transactions").get(0);
        TonCell body = body(walletTx.get("out").get(0));
        String name = scenario.get("name").asText();
        if (name.endsWith("missing-payload-bit") || name.endsWith("708-payload")) {
          // a transfer cut short before its forward payload's Either bit (the stablecoin throws 9, the
          // 2022 reference wallet lets it through): we refuse to read it
          assertThatThrownBy(() -> JettonTransfer.parse(body)).isInstanceOf(MalformedCellException.class);
          read++;
          continue;
        }
        JettonTransfer transfer = JettonTransfer.parse(body);
        assertThat(transfer.queryId()).as(scenario.get("name").asText()).isEqualTo(step.get("queryId").asLong());

        TonCell written = transfer.toCell();
        assertThat(JettonTransfer.parse(written)).as("what we write reads back the same").isEqualTo(transfer);
        if (transfer.comment() == null) {
          // no forward payload: one layout only, so the very same cell as @ton/core's
          assertThat(written.hashHex()).as(scenario.get("name").asText()).isEqualTo(body.hashHex());
          sameBytes++;
        }
        read++;
      }
    }
    assertThat(read).isEqualTo(VECTORS.get("scenarios").size());
    assertThat(sameBytes).isPositive();
  }

  /** Every jetton message of every trace read by its op, carrying the transfer's query id. */
  @Test
  void shouldReadEachJettonMessageOfTheTracesByItsOp() {
    List<String> seen = new ArrayList<>();
    for (JsonNode scenario : VECTORS.get("scenarios")) {
      for (JsonNode step : scenario.get("steps")) {
        if (!"external".equals(step.get("kind").asText())) {
          continue;
        }
        long queryId = step.get("queryId").asLong();
        for (JsonNode tx : step.get("transactions")) {
          for (JsonNode out : tx.get("out")) {
            JettonMessage m = JettonMessage.read(body(out));
            String name = scenario.get("name").asText();
            if (m instanceof JettonMessage.InternalTransfer it) {
              assertThat(it.queryId()).as(name).isEqualTo(queryId);
              assertThat(it.amount()).isPositive();
              assertThat(it.from()).as("the owner of the sending jetton wallet").isNotNull();
              seen.add("internal_transfer");
            } else if (m instanceof JettonMessage.Notification n) {
              assertThat(n.queryId()).as(name).isEqualTo(queryId);
              seen.add("notification");
            } else if (m instanceof JettonMessage.Excesses e) {
              assertThat(e.queryId()).as(name).isEqualTo(queryId);
              seen.add("excesses");
            } else if (m instanceof JettonMessage.Bounced b) {
              assertThat(b.queryId()).as(name).isEqualTo(queryId);
              assertThat(out.get("bounced").asBoolean()).isTrue();
              seen.add("bounced " + Long.toHexString(b.op()));
            }
          }
        }
      }
    }
    assertThat(seen).contains("internal_transfer", "notification", "excesses",
        "bounced " + Long.toHexString(JettonOps.TRANSFER), "bounced " + Long.toHexString(JettonOps.INTERNAL_TRANSFER));
  }

  @Test
  void shouldWriteATransferWithACommentInAReferenceAndNoResponseAsAddrNone() {
    TonAddress to = TonAddress.parse("0:a81defd0f6be5bbf6ed55043eaa94b49e5460526da2e0a1bba2e10314b04a66e");
    JettonTransfer t = new JettonTransfer(77, BigInteger.valueOf(2_500_000), to, null, 1, "order 77");

    JettonTransfer back = JettonTransfer.parse(t.toCell());

    assertThat(back).isEqualTo(t);
    assertThat(t.toCell().refCount()).as("the comment in a reference").isEqualTo(1);
    assertThat(JettonMessage.read(t.toCell())).isInstanceOf(JettonMessage.Other.class);
  }

  private static TonCell body(JsonNode message) {
    return Boc.parse(Base64.getDecoder().decode(message.get("body").asText()));
  }

  private static JsonNode load(String resource) {
    try (InputStream in = JettonBodiesTest.class.getResourceAsStream(resource)) {
      return Http.JSON.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
