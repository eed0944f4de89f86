"""mt-metrics-eval's meta-information of its releases: per test set and language pair the standard
reference, the standard human ("gold") score of each level, the outlier systems, the primary
submissions and the baselines, transcribed from ``mt_metrics_eval/meta_info.py`` (``MetaInfo`` and
``DATA``; google-research/mt-metrics-eval at 68a481a, April 2026).

The table is data: :func:`meta_info` looks a pair up, and a task set (:mod:`mtmeta.metaeval.tasks`)
takes its standard reference, gold score, outliers and primary filter from here unless the user
overrides them. Pair names are MTME's, including the locale forms of WMT24++ and WMT25 (``en-ar_EG``,
``en-sr_Cyrl_RS``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MetaInfo:
    """MTME's ``MetaInfo``: ``std_gold`` maps a level (sys, domain, seg) to its human score name."""

    std_ref: str
    std_gold: dict
    outlier_systems: frozenset
    primary_metrics: frozenset
    baseline_metrics: frozenset | None = None


def _names(text: str) -> frozenset:
    return frozenset(text.split())


def _levels(name: str, domain: bool = True) -> dict:
    return {"sys": name, "domain": name, "seg": name} if domain else {"sys": name, "seg": name}


NONE: frozenset = frozenset()
WMT20_GOLD = {"sys": "wmt-z", "doc": "wmt-raw", "seg": "wmt-raw"}
WMT21_GOLD = {"sys": "wmt-z", "seg": "wmt-raw"}
MQM_NODOMAIN = {"sys": "mqm", "seg": "mqm"}
_I = MetaInfo

WMT21_PRIMARIES = _names(
    "BERTScore BLEU C-SPECpn COMET-MQM_2021 COMET-QE-MQM_2021 MEE2 MTEQA OpenKiwi-MQM Prism TER YiSi-1 "
    "YiSi-2 bleurt-20 chrF regEMT sentBLEU"
)
WMT22_PRIMARIES = _names(
    "BERTScore BLEU BLEURT-20 COMET-20 COMET-22 COMET-QE COMETKiwi HWTSC-Teacher-Sim "
    "HuaweiTSC_EE_BERTScore_0.3_With_Human MATESE MATESE-QE MEE4 MS-COMET-22 MS-COMET-QE-22 REUSE SEScore "
    "UniTE UniTE-src YiSi-1 chrF f200spBLEU metricx_xxl_MQM_2020"
)
WMT23_BASELINES = _names(
    "BERTscore BLEU BLEURT-20 COMET CometKiwi MS-COMET-QE-22 Random-sysname YiSi-1 chrF docWMT22CometDA "
    "docWMT22CometKiwiDA f200spBLEU prismRef prismSrc"
)
WMT23_PRIMARIES = _names(
    "BERTscore BLEU BLEURT-20 COMET Calibri-COMET22 Calibri-COMET22-QE CometKiwi GEMBA-MQM KG-BERTScore "
    "MEE4 MS-COMET-QE-22 MaTESe MetricX-23 MetricX-23-QE Random-sysname XCOMET-Ensemble "
    "XCOMET-QE-Ensemble XLsim YiSi-1 chrF cometoid22-wmt22 docWMT22CometDA docWMT22CometKiwiDA eBLEU "
    "embed_llama f200spBLEU mbr-metricx-qe mre-score-labse-regular prismRef prismSrc sescoreX tokengram_F"
)
WMT24PP_PRIMARIES = _names(
    "BLEU COMETKiwi-23 ChrF Gemini-DA Gemini-DA-QE MetricX-24 MetricX-24-QE XCOMET XCOMET-QE"
)
WMT24_BASELINES = _names(
    "BERTScore BLEU BLEURT-20 COMET-22 CometKiwi PrismRefMedium PrismRefSmall YiSi-1 chrF "
    "sentinel-cand-mqm sentinel-ref-mqm sentinel-src-mqm spBLEU"
)
WMT24_PRIMARIES = _names(
    "BERTScore BLCOM_1 BLEU BLEURT-20 COMET-22 CometKiwi MEE4 MetricX-24-Hybrid MetricX-24-Hybrid-QE "
    "PrismRefMedium PrismRefSmall XCOMET XCOMET-QE XLsimMqm YiSi-1 bright-qe chrF chrfS damonmonli "
    "gemba_esa metametrics_mt_mqm_hybrid_kendall metametrics_mt_mqm_qe_kendall.seg.s sentinel-cand-mqm "
    "sentinel-ref-mqm sentinel-src-mqm spBLEU"
)
WMT25_BASELINES = _names(
    "BERTScore BLEU COMET22 COMETKiwi22 YiSi-1 chrF sentinel-cand spBLEU"
)
WMT25_PRIMARIES = _names(
    "EnsembleSlick GEMBA-v2 MetricX-25 Polycand-2 Q_Relative-MQM SEGALE-QE TASER-No-Ref UvA-MT "
    "comet-multi hw-tsc mr7_2_1 rankedCOMET"
)
DATA = {
    "wmt25": {
        "ja-zh_CN": _I("refA", _levels("mqm"), NONE, WMT25_PRIMARIES, WMT25_BASELINES),
        "en-ko_KR": _I("refA", _levels("mqm"), NONE, WMT25_PRIMARIES, WMT25_BASELINES),
        "cs-de_DE": _I("refA", _levels("esa-human1"), NONE, WMT25_PRIMARIES, WMT25_BASELINES),
        "cs-uk_UA": _I("refA", _levels("esa-human1"), NONE, WMT25_PRIMARIES, WMT25_BASELINES),
        "en-ar_EG": _I("refA", _levels("esa-human1"), NONE, WMT25_PRIMARIES, WMT25_BASELINES),
        "en-bho_IN": _I("refA", _levels("esa-human1"), NONE, WMT25_PRIMARIES, WMT25_BASELINES),
        "en-zh_CN": _I("refA", _levels("esa-human1"), NONE, WMT25_PRIMARIES, WMT25_BASELINES),
        "en-cs_CZ": _I("refA", _levels("esa-human1"), NONE, WMT25_PRIMARIES, WMT25_BASELINES),
        "en-et_EE": _I("refA", _levels("esa-human1"), NONE, WMT25_PRIMARIES, WMT25_BASELINES),
        "en-is_IS": _I("refA", _levels("esa-human1"), NONE, WMT25_PRIMARIES, WMT25_BASELINES),
        "en-it_IT": _I("refA", _levels("esa-human1"), NONE, WMT25_PRIMARIES, WMT25_BASELINES),
        "en-ja_JP": _I("refA", _levels("esa-human1"), NONE, WMT25_PRIMARIES, WMT25_BASELINES),
        "en-mas_KE": _I("refA", _levels("esa-human1"), NONE, WMT25_PRIMARIES, WMT25_BASELINES),
        "en-ru_RU": _I("refA", _levels("esa-human1"), NONE, WMT25_PRIMARIES, WMT25_BASELINES),
        "en-sr_Cyrl_RS": _I("refA", _levels("esa-human1"), NONE, WMT25_PRIMARIES, WMT25_BASELINES),
        "en-uk_UA": _I("refA", _levels("esa-human1"), NONE, WMT25_PRIMARIES, WMT25_BASELINES),
    },
    "wmt24pp": {
        "en-ar_EG": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-ar_SA": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-bg_BG": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-bn_IN": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-ca_ES": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-cs_CZ": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-da_DK": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-de_DE": _I("posteditB", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-el_GR": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-es_MX": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-et_EE": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-fa_IR": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-fi_FI": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-fil_PH": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-fr_CA": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-fr_FR": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-gu_IN": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-he_IL": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-hi_IN": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-hr_HR": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-hu_HU": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-id_ID": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-is_IS": _I("refA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-it_IT": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-ja_JP": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-kn_IN": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-ko_KR": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-lt_LT": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-lv_LV": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-ml_IN": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-mr_IN": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-nl_NL": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-no_NO": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-pa_IN": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-pl_PL": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-pt_BR": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-pt_PT": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-ro_RO": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-ru_RU": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-sk_SK": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-sl_SI": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-sr_RS": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-sv_SE": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-sw_KE": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-sw_TZ": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-ta_IN": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-te_IN": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-th_TH": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-tr_TR": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-uk_UA": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-ur_PK": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-vi_VN": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-zh_CN": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-zh_TW": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
        "en-zu_ZA": _I("posteditA", {}, NONE, WMT24PP_PRIMARIES, None),
    },
    "wmt24": {
        "en-de": _I("refB", _levels("mqm"), _names("MSLC"), WMT24_PRIMARIES, WMT24_BASELINES),
        "en-es": _I("refA", _levels("mqm"), _names("MSLC"), WMT24_PRIMARIES, WMT24_BASELINES),
        "ja-zh": _I("refA", _levels("mqm"), _names("MSLC"), WMT24_PRIMARIES, WMT24_BASELINES),
        "cs-uk": _I("refA", _levels("esa"), NONE, WMT24_PRIMARIES, WMT24_BASELINES),
        "en-cs": _I("refA", _levels("esa"), NONE, WMT24_PRIMARIES, WMT24_BASELINES),
        "en-hi": _I("refA", _levels("esa"), NONE, WMT24_PRIMARIES, WMT24_BASELINES),
        "en-is": _I("refA", _levels("esa"), NONE, WMT24_PRIMARIES, WMT24_BASELINES),
        "en-ja": _I("refA", _levels("esa"), NONE, WMT24_PRIMARIES, WMT24_BASELINES),
        "en-ru": _I("refA", _levels("esa"), NONE, WMT24_PRIMARIES, WMT24_BASELINES),
        "en-uk": _I("refA", _levels("esa"), NONE, WMT24_PRIMARIES, WMT24_BASELINES),
        "en-zh": _I("refA", _levels("esa"), NONE, WMT24_PRIMARIES, WMT24_BASELINES),
    },
    "wmt23.sent": {
        "en-de": _I("refA", _levels("mqm"), NONE, WMT23_PRIMARIES, WMT23_BASELINES),
    },
    "wmt23": {
        "en-de": _I("refA", _levels("mqm"), _names("synthetic_ref"), WMT23_PRIMARIES, WMT23_BASELINES),
        "he-en": _I("refB", _levels("mqm"), NONE, WMT23_PRIMARIES, WMT23_BASELINES),
        "zh-en": _I("refA", _levels("mqm"), _names("synthetic_ref"), WMT23_PRIMARIES, WMT23_BASELINES),
        "cs-uk": _I("refA", _levels("da-sqm"), NONE, WMT23_PRIMARIES, WMT23_BASELINES),
        "de-en": _I("refA", _levels("da-sqm"), NONE, WMT23_PRIMARIES, WMT23_BASELINES),
        "en-cs": _I("refA", _levels("da-sqm"), NONE, WMT23_PRIMARIES, WMT23_BASELINES),
        "en-he": _I("refB", {}, NONE, WMT23_PRIMARIES, WMT23_BASELINES),
        "en-ja": _I("refA", _levels("da-sqm"), NONE, WMT23_PRIMARIES, WMT23_BASELINES),
        "en-ru": _I("refA", {}, NONE, WMT23_PRIMARIES, WMT23_BASELINES),
        "en-uk": _I("refA", {}, NONE, WMT23_PRIMARIES, WMT23_BASELINES),
        "en-zh": _I("refA", _levels("da-sqm"), NONE, WMT23_PRIMARIES, WMT23_BASELINES),
        "ja-en": _I("refA", _levels("da-sqm"), NONE, WMT23_PRIMARIES, WMT23_BASELINES),
        "ru-en": _I("refA", {}, NONE, WMT23_PRIMARIES, WMT23_BASELINES),
        "uk-en": _I("refA", {}, NONE, WMT23_PRIMARIES, WMT23_BASELINES),
    },
    "wmt22": {
        "en-de": _I("refA", _levels("mqm"), _names("M2M100_1.2B-B4"), WMT22_PRIMARIES, None),
        "en-ru": _I("refA", _levels("mqm"), NONE, WMT22_PRIMARIES, None),
        "zh-en": _I("refA", _levels("mqm"), NONE, WMT22_PRIMARIES, None),
        "cs-en": _I("refB", _levels("wmt"), NONE, WMT22_PRIMARIES, None),
        "cs-uk": _I("refA", _levels("wmt-appraise", domain=False), NONE, WMT22_PRIMARIES, None),
        "de-en": _I("refA", _levels("wmt"), NONE, WMT22_PRIMARIES, None),
        "de-fr": _I("refA", {}, NONE, WMT22_PRIMARIES, None),
        "en-cs": _I("refB", _levels("wmt-appraise"), NONE, WMT22_PRIMARIES, None),
        "en-hr": _I("refA", _levels("wmt-appraise"), NONE, WMT22_PRIMARIES, None),
        "en-ja": _I("refA", _levels("wmt-appraise"), NONE, WMT22_PRIMARIES, None),
        "en-liv": _I("refA", _levels("wmt-appraise", domain=False), NONE, WMT22_PRIMARIES, None),
        "en-uk": _I("refA", _levels("wmt-appraise"), NONE, WMT22_PRIMARIES, None),
        "en-zh": _I("refA", _levels("wmt-appraise"), NONE, WMT22_PRIMARIES, None),
        "fr-de": _I("refA", {}, NONE, WMT22_PRIMARIES, None),
        "ja-en": _I("refA", _levels("wmt"), NONE, WMT22_PRIMARIES, None),
        "liv-en": _I("refA", _levels("wmt-appraise", domain=False), NONE, WMT22_PRIMARIES, None),
        "ru-en": _I("refA", _levels("wmt"), NONE, WMT22_PRIMARIES, None),
        "ru-sah": _I("refA", {}, NONE, WMT22_PRIMARIES, None),
        "sah-ru": _I("refA", _levels("wmt-appraise", domain=False), NONE, WMT22_PRIMARIES, None),
        "uk-cs": _I("refA", _levels("wmt-appraise", domain=False), NONE, WMT22_PRIMARIES, None),
        "uk-en": _I("refA", _levels("wmt", domain=False), NONE, WMT22_PRIMARIES, None),
    },
    "wmt21.news": {
        "en-cs": _I("refA", WMT21_GOLD, NONE, WMT21_PRIMARIES, None),
        "en-de": _I("refC", MQM_NODOMAIN, NONE, WMT21_PRIMARIES | _names("cushLEPOR(LM)"), None),
        "en-ha": _I("refA", WMT21_GOLD, NONE, WMT21_PRIMARIES, None),
        "en-is": _I("refA", WMT21_GOLD, NONE, WMT21_PRIMARIES, None),
        "en-ja": _I("refA", WMT21_GOLD, NONE, WMT21_PRIMARIES, None),
        "en-ru": _I("refA", MQM_NODOMAIN, NONE, WMT21_PRIMARIES | _names("hLEPOR"), None),
        "en-zh": _I("refA", WMT21_GOLD, NONE, WMT21_PRIMARIES, None),
        "cs-en": _I("refA", WMT21_GOLD, NONE, WMT21_PRIMARIES, None),
        "de-en": _I("refA", WMT21_GOLD, NONE, WMT21_PRIMARIES, None),
        "de-fr": _I("refA", WMT21_GOLD, NONE, WMT21_PRIMARIES, None),
        "fr-de": _I("refA", WMT21_GOLD, NONE, WMT21_PRIMARIES, None),
        "ha-en": _I("refA", WMT21_GOLD, NONE, WMT21_PRIMARIES, None),
        "is-en": _I("refA", WMT21_GOLD, NONE, WMT21_PRIMARIES, None),
        "ja-en": _I("refA", WMT21_GOLD, NONE, WMT21_PRIMARIES, None),
        "ru-en": _I("refA", WMT21_GOLD, NONE, WMT21_PRIMARIES, None),
        "zh-en": _I("refB", MQM_NODOMAIN, NONE, WMT21_PRIMARIES | _names("RoBLEURT cushLEPOR(LM)"), None),
    },
    "wmt21.tedtalks": {
        "en-de": _I("refA", MQM_NODOMAIN, NONE, WMT21_PRIMARIES | _names("cushLEPOR(LM)"), None),
        "en-ru": _I("refA", MQM_NODOMAIN, NONE, WMT21_PRIMARIES | _names("hLEPOR"), None),
        "zh-en": _I("refB", MQM_NODOMAIN, NONE, WMT21_PRIMARIES | _names("RoBLEURT cushLEPOR(LM)"), None),
    },
    "wmt21.flores": {
        "bn-hi": _I("refA", WMT21_GOLD, NONE, WMT21_PRIMARIES, None),
        "hi-bn": _I("refA", WMT21_GOLD, NONE, WMT21_PRIMARIES, None),
        "xh-zu": _I("refA", WMT21_GOLD, NONE, WMT21_PRIMARIES, None),
        "zu-xh": _I("refA", WMT21_GOLD, NONE, WMT21_PRIMARIES, None),
    },
    "wmt20": {
        "cs-en": _I("ref", WMT20_GOLD, _names("CUNI-DocTransformer.1457 zlabs-nlp.1149"), NONE, None),
        "de-en": _I("ref", WMT20_GOLD, _names("WMTBiomedBaseline.387 yolo.1052 zlabs-nlp.1153"), NONE, None),
        "en-cs": _I("ref", WMT20_GOLD, _names("Online-G.1555 zlabs-nlp.1151"), NONE, None),
        "en-de": _I("ref", WMT20_GOLD, _names("Online-G.1556 WMTBiomedBaseline.388 zlabs-nlp.179"), NONE, None),
        "en-iu": _I("ref", WMT20_GOLD, _names("OPPO.722 UEDIN.1281 UQAM_TanLe.521"), NONE, None),
        "en-ja": _I("ref", WMT20_GOLD, _names("Online-G.1557 SJTU-NICT.370"), NONE, None),
        "en-pl": _I("ref", WMT20_GOLD, _names("Online-A.1576 Online-Z.1634 zlabs-nlp.180"), NONE, None),
        "en-ru": _I("ref", WMT20_GOLD, NONE, NONE, None),
        "en-ta": _I("ref", WMT20_GOLD, _names("Online-G.1561 SJTU-NICT.386 TALP_UPC.1049"), NONE, None),
        "en-zh": _I("ref", WMT20_GOLD, NONE, NONE, None),
        "iu-en": _I("ref", WMT20_GOLD, _names("Facebook_AI.729 NiuTrans.1206"), NONE, None),
        "ja-en": _I("ref", WMT20_GOLD, _names("Online-G.1564 Online-Z.1640 zlabs-nlp.66"), NONE, None),
        "km-en": _I("ref", WMT20_GOLD, NONE, NONE, None),
        "pl-en": _I("ref", WMT20_GOLD, _names("zlabs-nlp.1162"), NONE, None),
        "ps-en": _I("ref", WMT20_GOLD, NONE, NONE, None),
        "ru-en": _I("ref", WMT20_GOLD, _names("zlabs-nlp.1164"), NONE, None),
        "ta-en": _I("ref", WMT20_GOLD, _names("Online-G.1568 TALP_UPC.192"), NONE, None),
        "zh-en": _I("ref", WMT20_GOLD, _names("WMTBiomedBaseline.183"), NONE, None),
    },
    "wmt19": {
        "de-cs": _I("ref", WMT21_GOLD, NONE, NONE, None),
        "de-en": _I("ref", WMT21_GOLD, NONE, NONE, None),
        "de-fr": _I("ref", WMT21_GOLD, NONE, NONE, None),
        "en-cs": _I("ref", WMT21_GOLD, NONE, NONE, None),
        "en-de": _I("ref", WMT21_GOLD, NONE, NONE, None),
        "en-fi": _I("ref", WMT21_GOLD, NONE, NONE, None),
        "en-gu": _I("ref", WMT21_GOLD, NONE, NONE, None),
        "en-kk": _I("ref", WMT21_GOLD, NONE, NONE, None),
        "en-lt": _I("ref", WMT21_GOLD, NONE, NONE, None),
        "en-ru": _I("ref", WMT21_GOLD, NONE, NONE, None),
        "en-zh": _I("ref", WMT21_GOLD, NONE, NONE, None),
        "fi-en": _I("ref", WMT21_GOLD, NONE, NONE, None),
        "fr-de": _I("ref", WMT21_GOLD, NONE, NONE, None),
        "gu-en": _I("ref", WMT21_GOLD, NONE, NONE, None),
        "kk-en": _I("ref", WMT21_GOLD, NONE, NONE, None),
        "lt-en": _I("ref", WMT21_GOLD, NONE, NONE, None),
        "ru-en": _I("ref", WMT21_GOLD, NONE, NONE, None),
        "zh-en": _I("ref", WMT21_GOLD, NONE, NONE, None),
    },
}


def meta_info(test_set: str, lp: str) -> MetaInfo | None:
    """MTME's meta-information of ``test_set`` ``lp``, or None when MTME does not know the pair."""
    return DATA.get(test_set, {}).get(lp)
