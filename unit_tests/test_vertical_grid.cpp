// The vertical grid factory (diffusion_spec §1.2, §5.2): ICON's analytic vct_a for the
// experiments' parameters against values ICON4Py's own _compute_vct_a_and_vct_b produced, the
// defining properties (top, lowest layer, monotonicity, the max_lay_thckn limiter), nrd and
// nflatlev, the presets, and the configuration errors.
#include <icondiff/core/error.hpp>
#include <icondiff/grid/vertical_grid.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace icondiff {
namespace {

constexpr double pi = 3.14159265358979323846;

// Reference values: ICON4Py's grid/vertical.py::_compute_vct_a_and_vct_b at commit 0baa415bc3,
// evaluated with NumPy 1.24 for the configurations named below (mch, ape, bench: the presets;
// limiter, limiter2: configurations in which ICON's max_lay_thckn limiter and its smoothing are
// active; uniform: min_lay_thckn <= 0.01). printed with repr(), i.e. exactly.
const std::vector<double> icon4py_vct_a_mch = {23000.0,
                                               20267.57977614409,
                                               18808.316862872744,
                                               17645.209478432578,
                                               16649.573524156993,
                                               15767.598849006221,
                                               14970.178042290916,
                                               14239.283693028452,
                                               13562.758206302518,
                                               12931.905058984285,
                                               12340.228248845646,
                                               11782.711681133735,
                                               11255.378878851721,
                                               10755.009592797562,
                                               10278.949589989743,
                                               9824.978499468381,
                                               9391.21529918575,
                                               8976.049038299205,
                                               8578.086969013575,
                                               8196.114990080408,
                                               7829.066987285797,
                                               7476.000727212904,
                                               7136.078660578205,
                                               6808.552460051291,
                                               6492.750437928687,
                                               6188.067212417727,
                                               5893.95514972269,
                                               5609.9172232800365,
                                               5335.501014932096,
                                               5070.293644636081,
                                               4813.917461653679,
                                               4566.026365324104,
                                               4326.302650484455,
                                               4094.4542934937426,
                                               3870.2126111745447,
                                               3653.330237927346,
                                               3443.5793766239717,
                                               3240.750287267655,
                                               3044.649984289427,
                                               2855.101119099911,
                                               2671.941029424135,
                                               2495.0209412555096,
                                               2324.2053131841903,
                                               2159.3713165800896,
                                               2000.4084488403726,
                                               1847.2182808658652,
                                               1699.7143443769428,
                                               1557.8221699649196,
                                               1421.4794933796613,
                                               1290.6366561721195,
                                               1165.2572384824427,
                                               1045.318978102474,
                                               930.8150535208852,
                                               821.755843725142,
                                               718.1713313259351,
                                               620.1144009054101,
                                               527.6654250683473,
                                               440.93877255014763,
                                               360.0923108741068,
                                               285.3418208023863,
                                               216.9840003045216,
                                               155.43579225710857,
                                               101.30847966961,
                                               55.56948426298197,
                                               19.99999999999999,
                                               0.0};

const std::vector<double> icon4py_vct_a_ape = {75000.0,
                                               71094.81618264971,
                                               67827.6266855434,
                                               64822.884265711655,
                                               62004.440147039764,
                                               59335.36792419722,
                                               56793.256288924655,
                                               54362.790815036016,
                                               52032.70082930655,
                                               49794.25984854177,
                                               47640.458230950004,
                                               45565.50708829526,
                                               43564.52153044966,
                                               41633.30819895161,
                                               39768.21697775993,
                                               37966.03405335804,
                                               36223.90265103277,
                                               34539.262901237686,
                                               32909.805298469764,
                                               31333.434051817992,
                                               29808.237786621932,
                                               28332.46581176431,
                                               26904.5086715506,
                                               25522.882046039555,
                                               24186.213304496407,
                                               22893.23018796758,
                                               21642.75122099226,
                                               20433.677543681766,
                                               19264.98592350572,
                                               18135.72275772181,
                                               17044.99891704385,
                                               15991.985312082492,
                                               14975.909088627563,
                                               13996.050377660384,
                                               13051.739542357278,
                                               12142.354878247892,
                                               11267.320734913577,
                                               10426.106038818496,
                                               9618.223207677689,
                                               8843.227457798264,
                                               8100.716517767033,
                                               7390.330775524615,
                                               6711.753902337729,
                                               6064.714017931987,
                                               5448.98548819936,
                                               4864.391483602635,
                                               4310.80747750677,
                                               3788.1659368310075,
                                               3296.462565113558,
                                               2835.7646213299727,
                                               2406.2220933286676,
                                               2008.0829194495443,
                                               1641.7141537674033,
                                               1307.632218826962,
                                               1006.5477482582534,
                                               739.4353249042966,
                                               507.64919697073447,
                                               313.1336181675595,
                                               158.86175929281148,
                                               50.00000000000003,
                                               0.0};

const std::vector<double> icon4py_vct_a_bench = {23500.0,
                                                 23001.97686537151,
                                                 22510.547865698667,
                                                 22025.604268887204,
                                                 21547.041127274933,
                                                 21074.757133097457,
                                                 20608.654482374794,
                                                 20148.638746724246,
                                                 19694.618752644474,
                                                 19246.50646785364,
                                                 18804.216894298934,
                                                 18367.66796748671,
                                                 17936.78046181256,
                                                 17511.477901598213,
                                                 17091.6864775686,
                                                 16677.334968526593,
                                                 16268.354668006768,
                                                 15864.679315711051,
                                                 15466.24503355076,
                                                 15072.9902661397,
                                                 14684.855725602976,
                                                 14301.7843405852,
                                                 13923.721209361405,
                                                 13550.613556972401,
                                                 13182.410696325815,
                                                 12819.063993223444,
                                                 12460.526835295124,
                                                 12106.754604840258,
                                                 11757.70465559957,
                                                 11413.336293502469,
                                                 11073.610761459835,
                                                 10738.491228298144,
                                                 10407.942781959715,
                                                 10081.932427124893,
                                                 9760.429087446859,
                                                 9443.403612628508,
                                                 9130.828790613865,
                                                 8822.679365216,
                                                 8518.932059558692,
                                                 8219.565605773245,
                                                 7924.560781464754,
                                                 7633.900453547334,
                                                 7347.5696301459875,
                                                 7065.555521378255,
                                                 6787.847609963921,
                                                 6514.4377327708835,
                                                 6245.320174594797,
                                                 5980.491775696453,
                                                 5719.952054892093,
                                                 5463.703350319452,
                                                 5211.750980399604,
                                                 4964.103427999902,
                                                 4720.77255139964,
                                                 4481.773826397767,
                                                 4247.1266248213815,
                                                 4016.8545358484316,
                                                 3790.9857380196886,
                                                 3569.5534316822177,
                                                 3352.59634401355,
                                                 3140.1593219107153,
                                                 2932.294032156295,
                                                 2729.0597937742996,
                                                 2530.524574914598,
                                                 2336.7661967731765,
                                                 2147.873801200033,
                                                 1963.9496586656776,
                                                 1785.1114221434204,
                                                 1611.4949750565472,
                                                 1443.2580857903408,
                                                 1280.585181230651,
                                                 1123.693712095632,
                                                 972.842849589997,
                                                 828.3457165743008,
                                                 690.5872053731655,
                                                 560.0510904577109,
                                                 437.36364172235164,
                                                 323.36912847067526,
                                                 219.2746188350655,
                                                 126.97409179584734,
                                                 49.99999999999996,
                                                 0.0};

const std::vector<double> icon4py_vct_a_limiter = {22000.0,
                                                   21239.64196038809,
                                                   20525.130689234276,
                                                   19850.550742819043,
                                                   19211.620408361876,
                                                   18605.07413422937,
                                                   18028.32429119885,
                                                   17479.259852837524,
                                                   16956.11880328382,
                                                   16457.403189713365,
                                                   15981.820274462561,
                                                   15528.240410206523,
                                                   15095.666045401074,
                                                   14695.666045401074,
                                                   14295.666045401074,
                                                   13895.666045401074,
                                                   13495.666045401074,
                                                   13095.666045401074,
                                                   12698.913478085753,
                                                   12310.963380356527,
                                                   11931.505452280097,
                                                   11560.25620888907,
                                                   11196.955518159411,
                                                   10841.363748899685,
                                                   10493.2593982365,
                                                   10152.437100794743,
                                                   9818.705945021906,
                                                   9491.888039186295,
                                                   9171.81728224823,
                                                   8858.338304322513,
                                                   8551.30554868794,
                                                   8250.582472863274,
                                                   7956.040850590923,
                                                   7667.560159958866,
                                                   7385.02704557559,
                                                   7108.334844855915,
                                                   6837.383170204314,
                                                   6572.07754028683,
                                                   6312.32905473628,
                                                   6058.054107590755,
                                                   5809.174135565929,
                                                   5565.615397939786,
                                                   5327.308785411045,
                                                   5094.18965580121,
                                                   4866.197694922578,
                                                   4643.276801345738,
                                                   4425.3749941838205,
                                                   4212.444343378945,
                                                   4004.440922340865,
                                                   3801.3247831611106,
                                                   3603.0599550203888,
                                                   3409.6144668377133,
                                                   3220.960395693709,
                                                   3037.073943118752,
                                                   2857.935541995867,
                                                   2683.5299976223264,
                                                   2513.84666744806,
                                                   2348.8796852229084,
                                                   2188.6282368203456,
                                                   2033.096896974582,
                                                   1882.2960387287949,
                                                   1736.2423307675779,
                                                   1594.9593423199055,
                                                   1458.4782814439159,
                                                   1326.8389009519997,
                                                   1200.0906180893473,
                                                   1078.2939110379966,
                                                   961.5220801032085,
                                                   849.863498538983,
                                                   743.4245350351466,
                                                   642.3334204419532,
                                                   546.7454802890551,
                                                   456.8504103987013,
                                                   372.88273475786906,
                                                   295.1374721303478,
                                                   223.99487949513238,
                                                   159.96236392093783,
                                                   103.75274410312434,
                                                   56.45352058250894,
                                                   20.000000000000007,
                                                   0.0};

const std::vector<double> icon4py_vct_a_limiter2 = {39999.99999999999,
                                                    38356.28430397094,
                                                    36775.4549531447,
                                                    35216.40293856384,
                                                    33700.80960200202,
                                                    32229.384033137623,
                                                    30802.6739851695,
                                                    29415.78118598736,
                                                    28063.50256773618,
                                                    26752.1284678346,
                                                    25476.28654440819,
                                                    24247.43741690542,
                                                    23065.595385693057,
                                                    21930.727911058682,
                                                    20842.763351491758,
                                                    19801.5976119568,
                                                    18813.58644149616,
                                                    17880.317204949395,
                                                    17006.0895939961,
                                                    16190.589796194869,
                                                    15429.872665002153,
                                                    14720.258076193728,
                                                    14058.31312451341,
                                                    13440.835516293959,
                                                    12864.838077708537,
                                                    12327.53430370827,
                                                    11809.530677799838,
                                                    11309.530677799838,
                                                    10809.530677799838,
                                                    10309.530677799838,
                                                    9809.530677799838,
                                                    9309.530677799838,
                                                    8809.530677799838,
                                                    8309.530677799838,
                                                    7809.530677799837,
                                                    7309.530677799837,
                                                    6809.530677799837,
                                                    6309.530677799837,
                                                    5809.530677799837,
                                                    5318.862141504061,
                                                    4849.712472354615,
                                                    4402.003677341875,
                                                    3975.665525609331,
                                                    3570.6369201673897,
                                                    3186.8674228873297,
                                                    2824.3189881733847,
                                                    2482.967977439434,
                                                    2162.80755088556,
                                                    1863.8505691755036,
                                                    1586.1331923115235,
                                                    1329.7194481580088,
                                                    1094.707180078137,
                                                    881.2360124718133,
                                                    689.4983755349288,
                                                    519.7553794833193,
                                                    372.3608271546882,
                                                    247.79994857838017,
                                                    146.75766560723406,
                                                    70.2558855983194,
                                                    19.99999999999998,
                                                    0.0};

const std::vector<double> icon4py_vct_a_uniform = {10000.0, 9000.0, 8000.0, 7000.0, 6000.0, 5000.0,
                                                   4000.0,  3000.0, 2000.0, 1000.0, 0.0};

// top_reset: the limiter caps every layer below htop_thcknlimit, which lies above the whole
// provisional column, so ICON resets the model top (ICON4Py logs a warning).
const std::vector<double> icon4py_vct_a_top_reset = {9820.460464511656,
                                                     9520.460464511656,
                                                     9220.460464511656,
                                                     8920.460464511656,
                                                     8620.460464511656,
                                                     8320.460464511656,
                                                     8020.460464511656,
                                                     7720.460464511656,
                                                     7420.460464511656,
                                                     7120.460464511656,
                                                     6820.460464511656,
                                                     6520.460464511656,
                                                     6220.460464511656,
                                                     5920.460464511656,
                                                     5620.460464511656,
                                                     5320.460464511656,
                                                     5020.460464511656,
                                                     4720.460464511656,
                                                     4420.460464511656,
                                                     4120.460464511656,
                                                     3820.460464511656,
                                                     3520.460464511656,
                                                     3220.460464511656,
                                                     2920.460464511656,
                                                     2620.460464511656,
                                                     2326.155691536188,
                                                     2049.3672308327054,
                                                     1789.893237104541,
                                                     1547.5649828332064,
                                                     1322.2497244710607,
                                                     1113.8547094338107,
                                                     922.3327823195547,
                                                     747.690316688214,
                                                     589.9986730122075,
                                                     449.4112747581678,
                                                     326.19019917316393,
                                                     220.750200632184,
                                                     133.73828470066013,
                                                     66.19818705288459,
                                                     19.99999999999999,
                                                     0.0};

VerticalGridConfig top_reset_config() {
  VerticalGridConfig c;
  c.num_levels = 40;
  c.model_top_height = 16000.0;
  c.lowest_layer_thickness = 20.0;
  c.maximal_layer_thickness = 300.0;
  c.top_height_limit_for_maximal_layer_thickness = 15000.0;
  return c;
}

VerticalGridConfig limiter_config() {
  VerticalGridConfig c;
  c.num_levels = 80;
  c.model_top_height = 22000.0;
  c.lowest_layer_thickness = 20.0;
  c.maximal_layer_thickness = 400.0;
  c.top_height_limit_for_maximal_layer_thickness = 15000.0;
  c.stretch_factor = 0.9;
  return c;
}

VerticalGridConfig limiter2_config() {
  VerticalGridConfig c;
  c.num_levels = 60;
  c.model_top_height = 40000.0;
  c.lowest_layer_thickness = 20.0;
  c.maximal_layer_thickness = 500.0;
  c.top_height_limit_for_maximal_layer_thickness = 12000.0;
  c.stretch_factor = 1.1;
  return c;
}

VerticalGridConfig uniform_config() {
  VerticalGridConfig c;
  c.num_levels = 10;
  c.model_top_height = 10000.0;
  c.lowest_layer_thickness = 0.0;
  return c;
}

/// Max relative difference, scaled by the model top (vct_a spans [0, top]).
double max_difference(const std::vector<double>& a, const std::vector<double>& b, double top) {
  double d = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) d = std::max(d, std::fabs(a[k] - b[k]) / top);
  return d;
}

void expect_matches_icon4py(const VerticalGridConfig& config, const std::vector<double>& ref,
                            const char* name) {
  SCOPED_TRACE(name);
  const std::vector<double> vct_a = compute_vct_a(config);
  ASSERT_EQ(vct_a.size(), ref.size());
  // Same formula and order of operations; only libm's pow/acos may differ in the last bit.
  EXPECT_LE(max_difference(vct_a, ref, config.model_top_height), 1e-14);
}

TEST(VerticalGrid, MatchesIcon4pyForThePresets) {
  expect_matches_icon4py(mch_ch_r04b09_vertical_config(), icon4py_vct_a_mch, "MCH_CH_R04B09");
  expect_matches_icon4py(exclaim_ape_vertical_config(), icon4py_vct_a_ape, "EXCLAIM_APE");
  expect_matches_icon4py(icon4py_benchmark_vertical_config(), icon4py_vct_a_bench, "benchmark");
}

TEST(VerticalGrid, MatchesIcon4pyWithTheThicknessLimiterAndForUniformLevels) {
  expect_matches_icon4py(limiter_config(), icon4py_vct_a_limiter, "limiter");
  expect_matches_icon4py(limiter2_config(), icon4py_vct_a_limiter2, "limiter2");
  expect_matches_icon4py(uniform_config(), icon4py_vct_a_uniform, "uniform");
}

TEST(VerticalGrid, LimiterMayResetTheModelTopAsInIcon) {
  // ICON (mo_init_vgrid.init_sleve_coord): "the model top height is reset, overriding the
  // top_height parameter" when the limited column never reaches htop_thcknlimit.
  expect_matches_icon4py(top_reset_config(), icon4py_vct_a_top_reset, "top_reset");
  const std::vector<double> v = compute_vct_a(top_reset_config());
  EXPECT_LT(v[0], 10000.0);
  for (int k = 0; k < 39; ++k) EXPECT_LE(v[k] - v[k + 1], 300.0 * (1 + 1e-12));
}

/// The defining properties of the stretched formula, checked with an independent evaluation.
void expect_stretched_properties(const VerticalGridConfig& c) {
  SCOPED_TRACE(c.num_levels);
  const std::vector<double> v = compute_vct_a(c);
  const int n = c.num_levels;
  ASSERT_EQ(static_cast<int>(v.size()), n + 1);
  EXPECT_NEAR(v[0], c.model_top_height, 1e-12 * c.model_top_height);
  EXPECT_EQ(v[n], 0.0);
  EXPECT_NEAR(v[n - 1] - v[n], c.lowest_layer_thickness, 1e-9 * c.lowest_layer_thickness);
  for (int k = 1; k <= n; ++k) EXPECT_LT(v[k], v[k - 1]) << "k = " << k;
  // vct_a[k] = top (2/π arccos((k/n)^s))^z with z from the lowest layer, evaluated as (k/n)^s.
  const double z = std::log(c.lowest_layer_thickness / c.model_top_height) /
                   std::log(std::acos(std::pow((n - 1.0) / n, c.stretch_factor)) * 2.0 / pi);
  for (int k = 0; k <= n; ++k) {
    const double expected =
        c.model_top_height *
        std::pow(std::acos(std::pow(static_cast<double>(k) / n, c.stretch_factor)) * 2.0 / pi, z);
    EXPECT_NEAR(v[k], expected, 1e-12 * c.model_top_height) << "k = " << k;
  }
  // Layer thickness grows upwards for stretch factors <= 1 (thinnest layer at the bottom).
  if (c.stretch_factor <= 1.0) {
    for (int k = 1; k < n; ++k) EXPECT_GT(v[k - 1] - v[k], v[k] - v[k + 1]) << "k = " << k;
  }
}

TEST(VerticalGrid, StretchedLevelsHaveTheConfiguredTopAndLowestLayer) {
  expect_stretched_properties(mch_ch_r04b09_vertical_config());
  expect_stretched_properties(exclaim_ape_vertical_config());
  expect_stretched_properties(icon4py_benchmark_vertical_config());
  expect_stretched_properties(icon4py_benchmark_vertical_config(40));
  VerticalGridConfig c = mch_ch_r04b09_vertical_config();
  c.num_levels = 2;
  expect_stretched_properties(c);
}

TEST(VerticalGrid, UniformLevelsBelowOneCentimetreLowestLayer) {
  for (double lowest : {0.0, 0.01}) {
    VerticalGridConfig c = uniform_config();
    c.lowest_layer_thickness = lowest;
    const std::vector<double> v = compute_vct_a(c);
    for (int k = 0; k <= 10; ++k) EXPECT_DOUBLE_EQ(v[k], 1000.0 * (10 - k));
  }
}

TEST(VerticalGrid, ThicknessLimiterCapsLayersBelowItsHeight) {
  for (const VerticalGridConfig& c : {limiter_config(), limiter2_config()}) {
    SCOPED_TRACE(c.num_levels);
    const std::vector<double> v = compute_vct_a(c);
    const int n = c.num_levels;
    for (int k = 1; k <= n; ++k) EXPECT_LT(v[k], v[k - 1]);
    EXPECT_EQ(v[n], 0.0);
    EXPECT_NEAR(v[n - 1], c.lowest_layer_thickness, 1e-9 * c.lowest_layer_thickness);
    // The model top stays at top_height (the layers above the limit are stretched to keep it).
    EXPECT_NEAR(v[0], c.model_top_height, 1e-9 * c.model_top_height);
    int capped = 0;
    for (int k = 0; k < n; ++k)
      // Layers entirely below the limit; ICON's smoothing of the stretched layers above may
      // thicken the layer that crosses it.
      if (v[k] < c.top_height_limit_for_maximal_layer_thickness) {
        EXPECT_LE(v[k] - v[k + 1], c.maximal_layer_thickness * (1 + 1e-12)) << "k = " << k;
        capped += std::fabs(v[k] - v[k + 1] - c.maximal_layer_thickness) < 1e-6;
      }
    EXPECT_GT(capped, 2) << "the limiter should be active in this configuration";
    // Without the limiter (ICON applies it only for 2 min < max < htop/2) the column differs.
    VerticalGridConfig off = c;
    off.maximal_layer_thickness = 0.5 * c.top_height_limit_for_maximal_layer_thickness;
    EXPECT_GT(max_difference(compute_vct_a(off), v, c.model_top_height), 1e-3);
  }
}

TEST(VerticalGrid, DampingLayerEnd) {
  // nrd: the largest half level at or above the damping height.
  const VerticalGrid mch = make_vertical_grid(mch_ch_r04b09_vertical_config());
  const int nrd = mch.end_index_of_damping_layer;
  EXPECT_EQ(mch.num_levels(), 65);
  EXPECT_GE(mch.vct_a[nrd], 12500.0);
  EXPECT_LT(mch.vct_a[nrd + 1], 12500.0);
  EXPECT_EQ(nrd, 9);  // vct_a[9] = 12931.9 m, vct_a[10] = 12340.2 m (ICON4Py values above)

  const VerticalGrid ape = make_vertical_grid(exclaim_ape_vertical_config());
  EXPECT_EQ(ape.num_levels(), 60);
  EXPECT_GE(ape.vct_a[ape.end_index_of_damping_layer], 50000.0);
  EXPECT_LT(ape.vct_a[ape.end_index_of_damping_layer + 1], 50000.0);
  EXPECT_EQ(ape.end_index_of_damping_layer, 8);  // 52032.7 m >= 50 km > 49794.3 m

  // The benchmark's 1 m damping height puts nrd at the lowest interior half level.
  const VerticalGrid bench = make_vertical_grid(icon4py_benchmark_vertical_config());
  EXPECT_EQ(bench.num_levels(), 80);
  EXPECT_EQ(bench.end_index_of_damping_layer, 79);
  EXPECT_NO_THROW(bench.validate());

  // A damping height above the model top: nrd = 0 (ICON4Py), no damping layer.
  VerticalGridConfig high = mch_ch_r04b09_vertical_config();
  high.rayleigh_damping_height = 30000.0;
  EXPECT_EQ(make_vertical_grid(high).end_index_of_damping_layer, 0);
  // Exactly at a half level: that level is included.
  high.rayleigh_damping_height = mch.vct_a[20];
  EXPECT_EQ(make_vertical_grid(high).end_index_of_damping_layer, 20);
}

TEST(VerticalGrid, FlatLayerEnd) {
  const std::vector<double> v = compute_vct_a(mch_ch_r04b09_vertical_config());
  const int nflat = end_index_of_flat_layer(v, 16000.0);
  EXPECT_GE(v[nflat], 16000.0);
  EXPECT_LT(v[nflat + 1], 16000.0);
  EXPECT_EQ(nflat, 4);  // 16649.6 m >= 16 km > 15767.6 m
  EXPECT_EQ(end_index_of_flat_layer(v, 1e6), 0);
  EXPECT_EQ(end_index_of_flat_layer(v, v[7]), 7);
}

TEST(VerticalGrid, PresetsCarryTheExperimentParameters) {
  const VerticalGridConfig mch = mch_ch_r04b09_vertical_config();
  EXPECT_EQ(mch.num_levels, 65);
  EXPECT_EQ(mch.model_top_height, 23000.0);
  EXPECT_EQ(mch.lowest_layer_thickness, 20.0);
  EXPECT_EQ(mch.stretch_factor, 0.65);
  EXPECT_EQ(mch.rayleigh_damping_height, 12500.0);
  const VerticalGridConfig ape = exclaim_ape_vertical_config();
  EXPECT_EQ(ape.num_levels, 60);
  EXPECT_EQ(ape.model_top_height, 75000.0);
  EXPECT_EQ(ape.lowest_layer_thickness, 50.0);
  EXPECT_EQ(ape.stretch_factor, 0.9);
  EXPECT_EQ(ape.rayleigh_damping_height, 50000.0);
  const VerticalGridConfig bench = icon4py_benchmark_vertical_config();
  EXPECT_EQ(bench.num_levels, 80);
  EXPECT_EQ(bench.model_top_height, 23500.0);
  EXPECT_EQ(bench.lowest_layer_thickness, 50.0);
  EXPECT_EQ(bench.stretch_factor, 1.0);
  EXPECT_EQ(bench.rayleigh_damping_height, 1.0);
  // The rest are ICON's sleve_nml defaults.
  for (const VerticalGridConfig& c : {mch, ape, bench}) {
    EXPECT_EQ(c.maximal_layer_thickness, 25000.0);
    EXPECT_EQ(c.top_height_limit_for_maximal_layer_thickness, 15000.0);
    EXPECT_EQ(c.flat_height, 16000.0);
    EXPECT_EQ(c.sleve_decay_scale_1, 4000.0);
    EXPECT_EQ(c.sleve_decay_scale_2, 2500.0);
    EXPECT_EQ(c.sleve_decay_exponent, 1.2);
    EXPECT_NO_THROW(c.validate());
  }
}

void expect_config_error(const std::function<void(VerticalGridConfig&)>& damage,
                         const std::vector<std::string>& words) {
  VerticalGridConfig c = mch_ch_r04b09_vertical_config();
  damage(c);
  try {
    make_vertical_grid(c);
    ADD_FAILURE() << "expected ConfigError containing '" << words.front() << "'";
  } catch (const ConfigError& e) {
    const std::string message = e.what();
    for (const auto& w : words)
      EXPECT_NE(message.find(w), std::string::npos) << "'" << w << "' not in: " << message;
  }
}

TEST(VerticalGrid, BadConfigurationsAreRejectedWithClearMessages) {
  expect_config_error([](auto& c) { c.num_levels = 1; },
                      {"num_levels", "run_nml:num_lev", "= 1", "at least 2"});
  expect_config_error([](auto& c) { c.model_top_height = -1.0; },
                      {"model_top_height", "sleve_nml:top_height", "> 0"});
  expect_config_error([](auto& c) { c.model_top_height = std::nan(""); },
                      {"model_top_height", "nan"});
  expect_config_error([](auto& c) { c.lowest_layer_thickness = -5.0; },
                      {"lowest_layer_thickness", "sleve_nml:min_lay_thckn", ">= 0"});
  expect_config_error([](auto& c) { c.lowest_layer_thickness = 30000.0; },
                      {"min_lay_thckn", "less than the model top", "23000"});
  expect_config_error([](auto& c) { c.stretch_factor = 0.0; },
                      {"stretch_factor", "sleve_nml:stretch_fac"});
  expect_config_error([](auto& c) { c.maximal_layer_thickness = 0.0; },
                      {"maximal_layer_thickness", "sleve_nml:max_lay_thckn"});
  expect_config_error([](auto& c) { c.top_height_limit_for_maximal_layer_thickness = -1.0; },
                      {"sleve_nml:htop_thcknlimit"});
  expect_config_error([](auto& c) { c.flat_height = -1.0; }, {"sleve_nml:flat_height", ">= 0"});
  expect_config_error([](auto& c) { c.rayleigh_damping_height = 0.0; },
                      {"rayleigh_damping_height", "nonhydrostatic_nml:damp_height", "> 0"});
  expect_config_error([](auto& c) { c.sleve_decay_scale_1 = 0.0; }, {"sleve_nml:decay_scale_1"});
  expect_config_error([](auto& c) { c.sleve_decay_scale_2 = -1.0; }, {"sleve_nml:decay_scale_2"});
  expect_config_error([](auto& c) { c.sleve_decay_exponent = 0.0; }, {"sleve_nml:decay_exp"});
  expect_config_error([](auto& c) { c.sleve_decay_scale_1 = 12000.0; },
                      {"decay_scale_1", "Gal-Chen", "not implemented"});
}

}  // namespace
}  // namespace icondiff
