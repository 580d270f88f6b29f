// What the inventory says is applied to an asset: the sticker and charm blocks of its
// description, read from real captured blocks (tests/fixtures/README.md).
#include "mocks/Fixture.hpp"
#include "portfolio/InventoryError.hpp"
#include "portfolio/InventoryPage.hpp"
#include "portfolio/InventoryPageApplied.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse::portfolio;
using skinpulse::test::fixture;

namespace {

AppliedAsset sticker(int slot, const std::string& name) { return {"sticker", slot, name}; }
AppliedAsset charm(int slot, const std::string& name) { return {"charm", slot, name}; }

std::string describeApplied(const std::vector<AppliedAsset>& applied) {
  std::string out;
  for (const auto& item : applied) {
    out += item.kind + "#" + std::to_string(item.slot) + "=" + item.name + "; ";
  }
  return out;
}

void assertApplied(const std::vector<AppliedAsset>& expected,
                   const std::vector<AppliedAsset>& actual) {
  CPPUNIT_ASSERT_EQUAL(describeApplied(expected), describeApplied(actual));
}

const InventoryAsset& assetNamed(const InventoryPage& page, const std::string& name) {
  for (const auto& asset : page.assets) {
    if (asset.market_hash_name == name) return asset;
  }
  throw std::runtime_error("no asset named " + name);
}

/// A one-asset page whose description carries `entries` (a JSON array's items).
std::string pageWithEntries(const std::string& entries) {
  return R"({"success":1,"assets":[{"assetid":"1","classid":"7","instanceid":"0"}],)"
         R"("descriptions":[{"classid":"7","instanceid":"0",)"
         R"j("market_hash_name":"AK-47 | Redline (Field-Tested)","descriptions":[)j" +
         entries + "]}]}";
}

std::string stickerBlock(const std::string& pictures, const std::string& caption) {
  return R"(<br><div id="sticker_info" class="sticker_info"><center>)" + pictures + "<br>" +
         caption + "</center></div>";
}

std::string picture(const std::string& title) {
  return title.empty()
             ? R"(<img width=64 height=48 src="https://cdn/x.png">)"
             : R"(<img width=64 height=48 src="https://cdn/x.png" title=")" + title + R"(">)";
}

std::vector<AppliedAsset> readBlock(AppliedBlockKind kind, const std::string& html) {
  const auto applied = parseAppliedBlock(kind, html);
  CPPUNIT_ASSERT_MESSAGE(html, applied.has_value());
  return *applied;
}

}  // namespace

class InventoryPageAppliedTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(InventoryPageAppliedTest);
  CPPUNIT_TEST(readsFourKatowiceStickersAndACharmFromTheCurrentFormat);
  CPPUNIT_TEST(readsTheOtherCurrentFormatSamples);
  CPPUNIT_TEST(readsTheOlderFormatFromItsCaption);
  CPPUNIT_TEST(keepsCommasInsideParenthesesInOneName);
  CPPUNIT_TEST(titlesBeatTheCaptionForNamesWithBareCommas);
  CPPUNIT_TEST(skipsACaptionThatDoesNotSplitOnePerPicture);
  CPPUNIT_TEST(keepsTheTitlesOwnPrefix);
  CPPUNIT_TEST(decodesCharacterReferences);
  CPPUNIT_TEST(tellsBlocksByNameOrByDivId);
  CPPUNIT_TEST(onlyTheFirstBlockOfEachKindCounts);
  CPPUNIT_TEST(strangeEntriesNeverRefuseThePage);
  CPPUNIT_TEST(refusesBlocksBeyondTheLimits);
  CPPUNIT_TEST(assetsWithoutBlocksHaveNothingApplied);
  CPPUNIT_TEST_SUITE_END();

 public:
  void readsFourKatowiceStickersAndACharmFromTheCurrentFormat() {
    const auto page = parseInventoryPage(fixture("steam_inventory_730_applied_real.json"));
    assertApplied({sticker(0, "Sticker | Hello AK-47 (Gold)"),
                   sticker(1, "Sticker | Clan-Mystik | Katowice 2014"),
                   sticker(2, "Sticker | Team Dignitas | Katowice 2014"),
                   sticker(3, "Sticker | Titan | Katowice 2014"), charm(0, "Charm | Lil' Crass")},
                  assetNamed(page, "AK-47 | Redline (Field-Tested)").applied);
  }

  void readsTheOtherCurrentFormatSamples() {
    const auto page = parseInventoryPage(fixture("steam_inventory_730_applied_real.json"));
    CPPUNIT_ASSERT_EQUAL(std::size_t{4}, page.assets.size());
    assertApplied({sticker(0, "Sticker | BIG (Glitter) | Rio 2022"),
                   sticker(1, "Sticker | Heroic | Paris 2023")},
                  assetNamed(page, "AWP | Neo-Noir (Field-Tested)").applied);
    // A name tag entry in Chinese sits beside the block; it is not applied.
    assertApplied({sticker(0, "Sticker | Guardian Dragon")},
                  assetNamed(page, "SSG 08 | Dragonfire (Factory New)").applied);
    CPPUNIT_ASSERT(assetNamed(page, "Recoil Case").applied.empty());
  }

  void readsTheOlderFormatFromItsCaption() {
    // 2023 bodies: no title on the pictures, no `name` on the entries.
    const auto page = parseInventoryPage(fixture("steam_inventory_730_applied_legacy_real.json"));
    CPPUNIT_ASSERT_EQUAL(std::size_t{4}, page.assets.size());
    assertApplied(
        {sticker(0, "Sticker | Cloud9 (Glitter) | Antwerp 2022"),
         sticker(1, "Sticker | coldzera | MLG Columbus 2016"),
         sticker(2, "Sticker | FalleN | Cologne 2015"), sticker(3, "Sticker | fer | Cologne 2015")},
        assetNamed(page, "AK-47 | Case Hardened (Field-Tested)").applied);
    assertApplied(
        {sticker(0, "Sticker | GODSENT | Atlanta 2017"), sticker(1, "Sticker | Knife's Edge")},
        assetNamed(page, "M4A4 | Desolate Space (Field-Tested)").applied);
    // The same sticker twice is two applied items in their own slots.
    assertApplied({sticker(0, "Sticker | Renegades (Holo) | Antwerp 2022"),
                   sticker(1, "Sticker | Renegades (Holo) | Stockholm 2021"),
                   sticker(2, "Sticker | Renegades (Holo) | Antwerp 2022"),
                   sticker(3, "Sticker | Renegades (Holo) | Stockholm 2021")},
                  assetNamed(page, "AK-47 | Legion of Anubis (Field-Tested)").applied);
  }

  void keepsCommasInsideParenthesesInOneName() {
    const auto page = parseInventoryPage(fixture("steam_inventory_730_applied_legacy_real.json"));
    assertApplied({sticker(0, "Sticker | rain (Glitter, Champion) | Antwerp 2022")},
                  assetNamed(page, "AWP | Duality (Field-Tested)").applied);
    assertApplied({sticker(0, "Sticker | 910 (Foil, Ranked) | Cologne 2026"),
                   sticker(1, "Sticker | Titan | Katowice 2014")},
                  readBlock(AppliedBlockKind::kSticker,
                            stickerBlock(picture("") + picture(""),
                                         "Sticker: 910 (Foil, Ranked) | Cologne 2026, Titan | "
                                         "Katowice 2014")));
  }

  void titlesBeatTheCaptionForNamesWithBareCommas() {
    // csfloat/extension#49, csgo-trader-extension#440: a caption cannot be split for
    // certain; the titles can.
    assertApplied(
        {sticker(0, "Sticker | Don't Worry, I'm Pro"), sticker(1, "Sticker | Run CT, Run")},
        readBlock(
            AppliedBlockKind::kSticker,
            stickerBlock(picture("Sticker: Don't Worry, I'm Pro") + picture("Sticker: Run CT, Run"),
                         "Sticker: Don't Worry, I'm Pro, Run CT, Run")));
  }

  void skipsACaptionThatDoesNotSplitOnePerPicture() {
    CPPUNIT_ASSERT(!parseAppliedBlock(AppliedBlockKind::kSticker,
                                      stickerBlock(picture(""), "Sticker: Don't Worry, I'm Pro")));
    CPPUNIT_ASSERT(!parseAppliedBlock(AppliedBlockKind::kSticker,
                                      stickerBlock(picture("") + picture(""), "Sticker: Titan")));
    // Pictures with neither titles nor a caption name nothing for certain.
    CPPUNIT_ASSERT(!parseAppliedBlock(AppliedBlockKind::kSticker,
                                      R"(<div id="sticker_info"><img src="a.png"></div>)"));
    // On a page the asset stays, with nothing applied.
    const auto page = parseInventoryPage(pageWithEntries(
        R"({"type":"html","name":"sticker_info","value":"<br><div id=\"sticker_info\"><center>)"
        R"(<img src=\"a.png\"><br>Sticker: Don't Worry, I'm Pro</center></div>"})"));
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, page.assets.size());
    CPPUNIT_ASSERT(page.assets[0].applied.empty());
  }

  void keepsTheTitlesOwnPrefix() {
    assertApplied({charm(0, "Souvenir Charm | Austin 2025 Highlight | Ace")},
                  readBlock(AppliedBlockKind::kCharm,
                            R"(<div id="keychain_info"><img src="c.png" )"
                            R"(title="Souvenir Charm: Austin 2025 Highlight | Ace"></div>)"));
    // A title without a prefix takes the block's.
    assertApplied(
        {charm(0, "Charm | Die-cast AK")},
        readBlock(AppliedBlockKind::kCharm,
                  R"(<div id="keychain_info"><img src="c.png" title="Die-cast AK"></div>)"));
  }

  void decodesCharacterReferences() {
    assertApplied(
        {sticker(0, "Sticker | Fnatic & Co (Foil)"), sticker(1, "Sticker | Lil' \"Q\"")},
        readBlock(
            AppliedBlockKind::kSticker,
            R"(<div id="sticker_info"><IMG SRC='a.png' TITLE='Sticker: Fnatic &amp; Co (Foil)'>)"
            R"(<img src="b.png" title="Sticker: Lil&#39; &quot;Q&#x22;"></div>)"));
    // References beyond ASCII come out as their UTF-8 bytes (two, three and four of them).
    assertApplied({sticker(0, "Sticker | M\u00fcnchen \u2605 \U0001F525")},
                  readBlock(AppliedBlockKind::kSticker,
                            R"(<div id="sticker_info"><img src="a.png" )"
                            R"(title="Sticker: M&#252;nchen &#x2605; &#x1F525;"></div>)"));
  }

  void tellsBlocksByNameOrByDivId() {
    const std::string html = R"(<br><div id="sticker_info"><img src="a" title="Sticker: X"></div>)";
    CPPUNIT_ASSERT(appliedBlockKind("sticker_info", true, "") == AppliedBlockKind::kSticker);
    CPPUNIT_ASSERT(appliedBlockKind("keychain_info", true, "") == AppliedBlockKind::kCharm);
    CPPUNIT_ASSERT(appliedBlockKind("", false, html) == AppliedBlockKind::kSticker);
    CPPUNIT_ASSERT(appliedBlockKind("", false, R"(<div id="keychain_info">)") ==
                   AppliedBlockKind::kCharm);
    // An entry named otherwise is never a block, whatever its html says.
    CPPUNIT_ASSERT(!appliedBlockKind("description", true, html));
    CPPUNIT_ASSERT(!appliedBlockKind("", false, "Exterior: Field-Tested"));
  }

  void onlyTheFirstBlockOfEachKindCounts() {
    const auto page = parseInventoryPage(pageWithEntries(
        R"({"name":"keychain_info","value":"<div id=\"keychain_info\"><img src=\"c\" title=\"Charm: Biomech\"></div>"},)"
        R"({"name":"sticker_info","value":"<div><img src=\"a\" title=\"Sticker: Bad News Eagles (Glitter) | Paris 2023\"></div>"},)"
        R"({"name":"sticker_info","value":"<div><img src=\"b\" title=\"Sticker: Second\"></div>"},)"
        R"({"name":"description","value":"<img src=\"x\" title=\"Sticker: Not applied\">"})"));
    // Stickers come first whatever the order of the entries.
    assertApplied({sticker(0, "Sticker | Bad News Eagles (Glitter) | Paris 2023"),
                   charm(0, "Charm | Biomech")},
                  page.assets[0].applied);
  }

  void strangeEntriesNeverRefuseThePage() {
    for (const std::string entries :
         {R"(1,"x",null,[],{"name":"sticker_info"},{"name":"sticker_info","value":7})",
          R"({"name":5,"value":"<div id=\"sticker_info\"><img title=\"Sticker: Y\"></div>"})",
          R"({"name":"sticker_info","value":"<img title=\"Sticker: \" src=a>"})",
          R"({"name":"sticker_info","value":"<img title=\"Sticker: A\u0001B\">"})",
          R"({"name":"sticker_info","value":"<img title=\"Sticker: unterminated"})",
          R"({"name":"sticker_info","value":"<img"})", R"({"name":"sticker_info","value":""})",
          R"({"name":"keychain_info","value":"&#0;&#xD800;&#99999999;&bogus;&"})"}) {
      const auto page = parseInventoryPage(pageWithEntries(entries));
      CPPUNIT_ASSERT_EQUAL_MESSAGE(entries, std::size_t{1}, page.assets.size());
      CPPUNIT_ASSERT_EQUAL_MESSAGE(entries, std::string("AK-47 | Redline (Field-Tested)"),
                                   page.assets[0].market_hash_name.value_or(""));
    }
    // `descriptions` that is not an array: no block, the page still reads.
    const auto page = parseInventoryPage(
        R"({"success":1,"assets":[{"assetid":"1","classid":"7"}],"descriptions":[{"classid":"7",)"
        R"("market_hash_name":"Recoil Case","descriptions":"<div id=\"sticker_info\">"}]})");
    CPPUNIT_ASSERT(page.assets[0].applied.empty());
    // A picture whose title is empty after its prefix names nothing: the block is dropped.
    CPPUNIT_ASSERT(!parseAppliedBlock(AppliedBlockKind::kSticker, R"(<img title="Sticker: ">)"));
  }

  void refusesBlocksBeyondTheLimits() {
    std::string nine;
    for (int i = 0; i < 9; ++i) nine += picture("Sticker: S" + std::to_string(i));
    CPPUNIT_ASSERT(!parseAppliedBlock(AppliedBlockKind::kSticker, stickerBlock(nine, "")));
    std::string five;
    for (int i = 0; i < 5; ++i) five += picture("Sticker: S" + std::to_string(i));
    CPPUNIT_ASSERT_EQUAL(std::size_t{5},
                         readBlock(AppliedBlockKind::kSticker, stickerBlock(five, "")).size());
    CPPUNIT_ASSERT(
        !parseAppliedBlock(AppliedBlockKind::kSticker,
                           stickerBlock(picture("Sticker: " + std::string(201, 'x')), "")));
    CPPUNIT_ASSERT(
        !parseAppliedBlock(AppliedBlockKind::kSticker,
                           stickerBlock(picture("Sticker: A") + std::string(17000, ' '), "")));
  }

  void assetsWithoutBlocksHaveNothingApplied() {
    for (const auto* name :
         {"steam_inventory_730_page1_synthetic.json", "steam_inventory_730_page2_synthetic.json"}) {
      for (const auto& asset : parseInventoryPage(fixture(name)).assets) {
        CPPUNIT_ASSERT_MESSAGE(asset.asset_id, asset.applied.empty());
      }
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(InventoryPageAppliedTest);
