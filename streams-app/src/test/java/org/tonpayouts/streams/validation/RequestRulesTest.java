package org.tonpayouts.streams.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tonpayouts.streams.PayoutTestKit.FIRST_SUBWALLET;
import static org.tonpayouts.streams.PayoutTestKit.TON;
import static org.tonpayouts.streams.PayoutTestKit.recipient;
import static org.tonpayouts.streams.PayoutTestKit.request;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.TransferKind;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.ton.network.TonNetwork;
import org.tonpayouts.ton.wallet.TextComment;

class RequestRulesTest {
  private static final String KEY = Long.toString(FIRST_SUBWALLET);
  private final RequestRules rules = RequestRules.from(new PayoutsConfig(Map.of(
      PayoutsConfig.TON_NETWORK_CONFIG, "mainnet",
      PayoutsConfig.WALLET_SUBWALLET_MIN_CONFIG, FIRST_SUBWALLET,
      PayoutsConfig.TRANSFER_MAX_AMOUNT_NANO_CONFIG, 100 * TON,
      PayoutsConfig.REQUEST_MAX_TOTAL_NANO_CONFIG, 150 * TON)), DestinationPolicy.none());

  private static TransferRequest pay(String id, long nano, String comment) {
    return new TransferRequest(id, TransferKind.PAYOUT, recipient(1).toFriendly(false, false), nano, comment, null);
  }

  private static TransferRequest payTo(String destination) {
    return payTo("t", destination);
  }

  private static TransferRequest payTo(String id, String destination) {
    return new TransferRequest(id, TransferKind.PAYOUT, destination, TON, null, null);
  }

  private List<String> problems(TransferRequest... transfers) {
    return rules.problems(KEY, request("r", FIRST_SUBWALLET, transfers));
  }

  @Test
  void shouldAcceptARequestWithinEveryRule() {
    assertThat(problems(pay("a", 100 * TON, "deal 42\tpaid"), pay("b", 50 * TON, "привет 👋 €"))).isEmpty();
  }

  @Test
  void shouldSayNoKeyForANullKeyAndQuoteAWrongOne() {
    PayoutRequest request = request("r", FIRST_SUBWALLET, pay("a", TON, null));

    assertThat(rules.problems(null, request)).containsExactly("record key: no key; it must be the subwalletId as a "
        + "decimal string ('698983191'): the key decides which partition, and so which task, owns the wallet");
    assertThat(rules.problems("7", request)).containsExactly("record key '7' must be the subwalletId as a decimal "
        + "string ('698983191'): the key decides which partition, and so which task, owns the wallet");
    assertThat(rules.problems("k".repeat(5_000), request).get(0)).startsWith("record key '" + "k".repeat(70) + "...' must");
  }

  @Test
  void shouldRefuseATransferAboveTheLimitNamingTheLimitAndItsKey() {
    assertThat(problems(pay("a", 100 * TON + 1, null))).containsExactly(
        "$.transfers[0].amountNano: 100000000001 nanotons (100.000000001 TON) is above the per-transfer limit of "
            + "100000000000 nanotons (100 TON) (transfer.max.amount.nano)");
  }

  @Test
  void shouldRefuseARequestAboveTheTotalWithoutOverflowing() {
    assertThat(problems(pay("a", 100 * TON, null), pay("b", 50 * TON, null), pay("c", 1, null))).containsExactly(
        "$.transfers: the transfers add up to 150000000001 nanotons (150.000000001 TON), above the per-request limit "
            + "of 150000000000 nanotons (150 TON) (request.max.total.nano)");
    RequestRules unlimited = new RequestRules(0, 0xFFFF_FFFFL, new AmountLimits(Long.MAX_VALUE, Long.MAX_VALUE),
        CommentPolicy.strict(), TonNetwork.MAINNET, DestinationPolicy.none());
    List<String> overflow = unlimited.problems(KEY, request("r", FIRST_SUBWALLET,
        pay("a", Long.MAX_VALUE, null), pay("b", Long.MAX_VALUE, null)));
    assertThat(overflow).containsExactly("$.transfers: the transfers add up to 18446744073709551614 nanotons "
        + "(18446744073.709551614 TON), above the per-request limit of 9223372036854775807 nanotons "
        + "(9223372036.854775807 TON) (request.max.total.nano)");
  }

  @Test
  void shouldSayWhatIsWrongWithAnAddress() {
    String good = recipient(1).toFriendly(false, false);

    assertThat(problems(payTo("2:" + "00".repeat(32)))).containsExactly("$.transfers[0].destination: workchain 2 is "
        + "not supported: TON has workchains 0 (basechain) and -1 (masterchain)");
    assertThat(problems(payTo(good.substring(2)))).singleElement().asString()
        .startsWith("$.transfers[0].destination: address '").contains("' has 46 characters");
    assertThat(problems(payTo(good.substring(0, 47) + "!"))).singleElement().asString()
        .endsWith("'!' at position 47 is not a base64url character (A-Z a-z 0-9 - _, or + / in standard base64)");
    assertThat(problems(payTo(good.substring(0, 47) + (good.charAt(47) == 'A' ? 'B' : 'A')))).singleElement()
        .asString().endsWith(": checksum mismatch (mistyped address?)");
  }

  @Test
  void shouldRejectATestnetFlaggedDestinationOnMainnetNamingTheFlagAndTheNetwork() {
    String testnetBounceable = recipient(1).toFriendly(true, true);
    String testnetNonBounceable = recipient(2).toFriendly(false, true);

    assertThat(testnetBounceable).startsWith("kQ");
    assertThat(testnetNonBounceable).startsWith("0Q");
    assertThat(problems(payTo("a", testnetBounceable), payTo("b", testnetNonBounceable))).containsExactly(
        "$.transfers[0].destination: address '" + testnetBounceable + "' is flagged for testnet (its user-friendly"
            + " form carries the testnet flag, as kQ... and 0Q... addresses do), but this deployment pays on mainnet"
            + " (ton.network=mainnet): a testnet address in a mainnet payout is most often a mix-up of environments."
            + " Ask the recipient for its mainnet address (EQ... or UQ...)",
        "$.transfers[1].destination: address '" + testnetNonBounceable + "' is flagged for testnet (its"
            + " user-friendly form carries the testnet flag, as kQ... and 0Q... addresses do), but this deployment pays"
            + " on mainnet (ton.network=mainnet): a testnet address in a mainnet payout is most often a mix-up of"
            + " environments. Ask the recipient for its mainnet address (EQ... or UQ...)");
    assertThat(problems(payTo("a", recipient(1).toRaw()), payTo("b", recipient(1).toFriendly(true, false))))
        .as("the raw form carries no flag; the mainnet form is right").isEmpty();
  }

  @Test
  void shouldApplyMainnetsRuleWhenNoNetworkIsConfigured() {
    RequestRules unset = RequestRules.from(new PayoutsConfig(Map.of(
        PayoutsConfig.WALLET_SUBWALLET_MIN_CONFIG, FIRST_SUBWALLET)), DestinationPolicy.none());

    assertThat(unset.problems(KEY, request("r", FIRST_SUBWALLET, payTo(recipient(1).toFriendly(false, true)))))
        .singleElement().asString().contains("is flagged for testnet").contains("(ton.network=mainnet)");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"testnet", "devnet"})
  void shouldPayBothFormsOnTestnetAndDevnet(String network) {
    RequestRules rules = RequestRules.from(new PayoutsConfig(Map.of(
        PayoutsConfig.TON_NETWORK_CONFIG, network,
        PayoutsConfig.WALLET_SUBWALLET_MIN_CONFIG, FIRST_SUBWALLET)), DestinationPolicy.none());

    assertThat(rules.problems(KEY, request("r", FIRST_SUBWALLET, payTo("a", recipient(1).toFriendly(true, true)),
        payTo("b", recipient(2).toFriendly(false, true)), payTo("c", recipient(3).toFriendly(false, false))))).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "000A | control character U+000A (LINE FEED (LF)) at position 3",
      "000D | control character U+000D (CARRIAGE RETURN (CR)) at position 3",
      "001B | control character U+001B (ESCAPE) at position 3",
      "0000 | control character U+0000 (NULL) at position 3",
      "007F | control character U+007F (DELETE) at position 3",
      "0085 | control character U+0085 (NEXT LINE (NEL)) at position 3",
      "009B | control character U+009B (CONTROL SEQUENCE INTRODUCER) at position 3",
      "202E | bidirectional control character U+202E (RIGHT-TO-LEFT OVERRIDE) at position 3",
      "202A | bidirectional control character U+202A (LEFT-TO-RIGHT EMBEDDING) at position 3",
      "2066 | bidirectional control character U+2066 (LEFT-TO-RIGHT ISOLATE) at position 3",
      "2069 | bidirectional control character U+2069 (POP DIRECTIONAL ISOLATE) at position 3",
      "200E | bidirectional control character U+200E (LEFT-TO-RIGHT MARK) at position 3",
      "200F | bidirectional control character U+200F (RIGHT-TO-LEFT MARK) at position 3",
      "061C | bidirectional control character U+061C (ARABIC LETTER MARK) at position 3",
      "2028 | line or paragraph separator U+2028 (LINE SEPARATOR) at position 3",
      "2029 | line or paragraph separator U+2029 (PARAGRAPH SEPARATOR) at position 3",
      "200B | invisible character U+200B (ZERO WIDTH SPACE) at position 3",
      "200C | invisible character U+200C (ZERO WIDTH NON-JOINER) at position 3",
      "2060 | invisible character U+2060 (WORD JOINER) at position 3",
      "2061 | invisible character U+2061 (FUNCTION APPLICATION) at position 3",
      "2062 | invisible character U+2062 (INVISIBLE TIMES) at position 3",
      "2063 | invisible character U+2063 (INVISIBLE SEPARATOR) at position 3",
      "2064 | invisible character U+2064 (INVISIBLE PLUS) at position 3",
      "FEFF | invisible character U+FEFF (ZERO WIDTH NO-BREAK SPACE) at position 3",
      "180E | invisible character U+180E (MONGOLIAN VOWEL SEPARATOR) at position 3",
      "034F | invisible character U+034F (COMBINING GRAPHEME JOINER) at position 3",
      "115F | invisible character U+115F (HANGUL CHOSEONG FILLER) at position 3",
      "1160 | invisible character U+1160 (HANGUL JUNGSEONG FILLER) at position 3",
      "3164 | invisible character U+3164 (HANGUL FILLER) at position 3",
      "FFA0 | invisible character U+FFA0 (HALFWIDTH HANGUL FILLER) at position 3",
      "FFF9 | invisible character U+FFF9 (INTERLINEAR ANNOTATION ANCHOR) at position 3",
      "FFFA | invisible character U+FFFA (INTERLINEAR ANNOTATION SEPARATOR) at position 3",
      "FFFB | invisible character U+FFFB (INTERLINEAR ANNOTATION TERMINATOR) at position 3",
      "206A | invisible character U+206A (INHIBIT SYMMETRIC SWAPPING) at position 3",
      "206F | invisible character U+206F (NOMINAL DIGIT SHAPES) at position 3",
      "00AD | invisible character U+00AD (SOFT HYPHEN) at position 3",
      "E0041 | invisible character U+E0041 (TAG LATIN CAPITAL LETTER A) at position 3",
  })
  void shouldRefuseControlAndBidiCharactersNamingThemAndTheirPosition(String hex, String expected) {
    String c = new String(Character.toChars(Integer.parseInt(hex, 16)));

    assertThat(problems(pay("a", TON, "😀ab" + c + "cd"))).containsExactly("$.transfers[0].comment: " + expected
        + " is not allowed in a comment (comment.control.characters=reject; TAB is allowed)");
  }

  @Test
  void shouldKeepTheJoinersAndTagsOfEmojiAndRefuseAJoinerElsewhereSayingWhereItMayStand() {
    String family = "\uD83D\uDC68\u200D\uD83D\uDC69\u200D\uD83D\uDC67"; // man ZWJ woman ZWJ girl
    String rainbowFlag = "\uD83C\uDFF3\uFE0F\u200D\uD83C\uDF08"; // white flag VS16 ZWJ rainbow
    String healthWorker = "\uD83E\uDDD1\uD83C\uDFFD\u200D\u2695\uFE0F"; // person, skin tone, ZWJ, staff of Aesculapius
    String england = new String(new int[] {0x1F3F4, 0xE0067, 0xE0062, 0xE0065, 0xE006E, 0xE0067, 0xE007F}, 0, 7);

    assertThat(problems(pay("a", TON, "thanks " + family + " " + rainbowFlag + " " + healthWorker + " " + england)))
        .isEmpty();
    assertThat(problems(pay("a", TON, "dep\u200Dosit 42"))).containsExactly("$.transfers[0].comment: invisible"
        + " character U+200D (ZERO WIDTH JOINER) at position 3 is not allowed in a comment"
        + " (comment.control.characters=reject; TAB is allowed, and U+200D between two emoji)");
    assertThat(problems(pay("a", TON, family + "\u200D"))).as("a joiner with nothing after it")
        .singleElement().asString().contains("U+200D (ZERO WIDTH JOINER) at position 5");
    assertThat(problems(pay("a", TON, "a" + new String(Character.toChars(0xE0067)))))
        .as("a tag outside a flag").singleElement().asString().contains("U+E0067 (TAG LATIN SMALL LETTER G) at position 1");
  }

  @Test
  void shouldCountFurtherForbiddenCharactersAndAllowThemWhenConfigured() {
    String memo = "line1\r\nline2\u202e";

    assertThat(problems(pay("a", TON, memo))).singleElement().asString()
        .contains("U+000D (CARRIAGE RETURN (CR)) at position 5 (and 2 more)");
    RequestRules allowing = RequestRules.from(new PayoutsConfig(Map.of(
        PayoutsConfig.WALLET_SUBWALLET_MIN_CONFIG, FIRST_SUBWALLET,
        PayoutsConfig.COMMENT_CONTROL_CHARACTERS_CONFIG, PayoutsConfig.COMMENT_CONTROL_ALLOW)), DestinationPolicy.none());
    assertThat(allowing.problems(KEY, request("r", FIRST_SUBWALLET, pay("a", TON, memo)))).isEmpty();
  }

  @Test
  void shouldRefuseACommentTheChainWouldChangeEvenWhenControlsAreAllowed() {
    CommentPolicy allowing = CommentPolicy.allowingControlCharacters();

    assertThat(allowing.problem("ab\ud800")).contains("cannot be carried on chain unchanged: it is not valid Unicode text");
    assertThat(CommentPolicy.strict().problem("\udc00")).isPresent();
  }

  /** Whatever valid text passes the policy lands on chain as the same bytes. */
  @Test
  void shouldCarryEveryAcceptedCommentByteForByte() {
    Random random = new Random(42);
    int[] ranges = {0x20, 0x7E, 0xA0, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0x10000, 0x10FFFF};
    for (int n = 0; n < 2_000; n++) {
      StringBuilder text = new StringBuilder();
      for (int i = random.nextInt(1000); i > 0; i--) {
        int r = random.nextInt(ranges.length / 2) * 2;
        text.appendCodePoint(ranges[r] + random.nextInt(ranges[r + 1] - ranges[r] + 1));
      }
      String comment = text.toString();
      java.util.Optional<String> problem = CommentPolicy.strict().problem(comment);
      if (problem.isPresent()) {
        assertThat(comment.codePoints().anyMatch(cp -> problem.get().contains(String.format("U+%04X ", cp))))
            .as("the reason names a character of the comment: %s", problem.get()).isTrue();
        continue;
      }
      byte[] onChain = TextComment.decode(TextComment.encode(comment)).getBytes(StandardCharsets.UTF_8);
      assertThat(onChain).isEqualTo(comment.getBytes(StandardCharsets.UTF_8));
    }
  }
}
