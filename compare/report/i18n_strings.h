/* The report strings, English and Chinese, as X(id, en, zh) entries: included by i18n.h (the
 * enum) and i18n.c (the tables). No include guard on purpose. {0}..{9} are placeholders
 * filled by report_md's own substitution (never a printf format). Number formats are the
 * same in both languages. */
X(M_TITLE_AB, "{0} against {1}: performance comparison", "{0} 对比 {1}：性能比较")
X(M_TITLE_NWAY, "{0}: performance comparison", "{0}：性能比较")
X(M_TITLE_ONE, "{0}: benchmark results", "{0}：基准测试结果")
X(M_AND, " and ", " 和 ")
X(M_LIST_SEP, ", ", "、")
X(M_METHOD,
  "Method: every run is a fresh process; {0} runs per version and configuration, {1} s "
  "warm-up, {2} s measurement; in each round the versions run back to back, and the order "
  "alternates between rounds. Tables show median [min–max] over the runs: a range is {0} "
  "observations, not a confidence interval.",
  "方法：每次运行都是一个全新的进程；每个版本、每个配置运行 {0} 次，预热 {1} 秒，测量 {2} "
  "秒；每一轮中各版本紧挨着运行，轮与轮之间交替顺序。表格给出各次运行的中位数 "
  "[最小值–最大值]：一个区间是 {0} 次观测，不是置信区间。")
X(M_METHOD_ONE,
  "Method: every run is a fresh process; {0} rounds per configuration, {1} s warm-up, {2} s "
  "measurement. Tables show the median over the rounds, with [min–max] where given.",
  "方法：每次运行都是一个全新的进程；每个配置 {0} 轮，预热 {1} 秒，测量 {2} "
  "秒。表格给出各轮的中位数，并在注明处给出 [最小值–最大值]。")
X(M_ROLES, "Baseline: `{0}`. Candidate: `{1}`.", "基线：`{0}`。候选：`{1}`。")
X(M_ROLES_NWAY, "Baseline: `{0}`. Compared against it: {1}.", "基线：`{0}`。与之比较：{1}。")
X(M_H_SUMMARY, "Summary", "摘要")
X(M_H_COMPLETENESS, "Completeness", "完整性")
X(M_H_THROUGHPUT, "Throughput and CPU", "吞吐量与 CPU")
X(M_H_LATENCY, "Latency (µs)", "延迟（µs）")
X(M_H_MEMORY, "Memory (peak RSS, MiB)", "内存（峰值 RSS，MiB）")
X(M_H_EVIDENCE, "Evidence", "证据")
X(M_H_ENVIRONMENT, "Measurement environment", "测量环境")
X(M_H_VERSIONS, "Versions", "版本")
X(M_H_PROVENANCE, "Provenance", "数据来源")
X(M_H_REPRODUCE, "Reproduce", "复现")
X(M_H_DETAILED, "Detailed results", "详细结果")
X(M_NOTABLE_INTRO, "{0} against {1}: {2} of {3} configurations stand out: ",
  "{0} 对比 {1}：{3} 个配置中有 {2} 个明显不同：")
X(M_NOTABLE_ITEM, "{0} ({3}; {1} throughput, {2} P99)", "{0}（{3}；吞吐量 {1}，P99 {2}）")
X(M_NONE_NOTABLE,
  "{0} against {1}: no configuration passes a threshold with strong evidence. The largest "
  "throughput changes: ",
  "{0} 对比 {1}：没有任何配置以充分的证据超过阈值。吞吐量变化最大的是：")
X(M_CHANGE_ITEM, "{0} ({1} throughput, {2} P99)", "{0}（吞吐量 {1}，P99 {2}）")
X(M_NO_DATA, "no configuration has data for both versions.", "没有任何配置同时具有两个版本的数据。")
X(M_OVERLAP_ALL, "The throughput ranges of {0} and {1} overlap in every configuration.",
  "{0} 与 {1} 的吞吐量区间在每个配置中都有重叠。")
X(M_OVERLAP_SOME,
  "The throughput ranges of {0} and {1} do not overlap in {2} of {3} configurations: {4}.",
  "{0} 与 {1} 的吞吐量区间在 {3} 个配置中有 {2} 个不重叠：{4}。")
X(M_MORE, "{0} more", "另外 {0} 个")
X(M_CAUSE,
  "These figures show what changed, not why: the cause of the differences is not confirmed "
  "by this measurement.",
  "这些数字说明了什么发生了变化，而不是为什么：差异的原因并未被本次测量证实。")
X(M_V_REGRESSED, "regressed", "退步")
X(M_V_IMPROVED, "improved", "改进")
X(M_V_UNDECIDED, "undecided", "未判定")
X(M_V_FAILED, "failed", "失败")
X(M_R_TOO_FEW, "too few runs", "运行次数太少")
X(M_R_NOISE, "noise larger than the threshold", "噪声大于阈值")
X(M_R_DISTURBED, "disturbed runs", "运行受到干扰")
X(M_R_WHY, " ({0})", "（{0}）")
X(M_R_WHY_RUNS, " ({0}: about {1} runs a side would decide)", "（{0}：每边约 {1} 次运行即可判定）")
X(M_MN_THROUGHPUT, "throughput", "吞吐量")
X(M_MN_CPU, "CPU %", "CPU %")
X(M_MN_EFFICIENCY, "CPU efficiency", "CPU 效率")
X(M_MN_P50, "P50", "P50")
X(M_MN_P99, "P99", "P99")
X(M_MN_RSS, "peak RSS", "峰值 RSS")
X(M_INSTR_NO_SYMBOLS,
  "Functions without a symbol are counted as `unknown (OBJECT)`, by the file they lie in. "
  "Their names come with debug symbols: for a Debian package, its `-dbgsym` package "
  "(`dpkg -S` names the package of the file; the packages are in the debian-debug archive); "
  "for a build from source, compile with `-g` and do not strip the binary.",
  "没有符号的函数按其所在文件计为 `unknown (文件)`。函数名需要调试符号：Debian 软件包请安装其 "
  "`-dbgsym` 包（`dpkg -S` 可查出文件所属的包；这些包在 debian-debug 源中）；自行编译的程序请加 "
  "`-g` 编译且不要 strip。")
X(M_INSTR_UNNAMED_PKG,
  "`{0}` ({1}) has no symbols, so its own code is left out of the list above: install "
  "`{2}-dbgsym` (Debian's debug symbols, found by the binary's build id) to see its functions.",
  "`{0}`（{1}）没有符号，因此其自身代码未列入上表：安装 `{2}-dbgsym`（Debian "
  "的调试符号，按二进制的 build id 查找）即可看到其函数。")
X(M_INSTR_UNNAMED_SRC,
  "`{0}` ({1}) has no symbols, so its own code is left out of the list above: build it with "
  "`-g` and do not strip it to see its functions.",
  "`{0}`（{1}）没有符号，因此其自身代码未列入上表：用 `-g` 编译且不要 strip，即可看到其函数。")
X(M_MN_SERVER_CPU, "server CPU per operation", "服务器每次操作 CPU")
X(M_MN_INSTRUCTIONS, "instructions per operation", "每次操作指令数")
X(M_MN_CTXSW, "context switches per operation", "每次操作上下文切换次数")
X(M_MN_FAULTS, "page faults per operation", "每次操作缺页次数")
X(M_MN_MIGRATIONS, "CPU migrations per operation", "每次操作 CPU 迁移次数")
X(M_MN_SYSCALLS, "system calls per operation", "每次操作系统调用次数")
X(M_MN_ALLOCATIONS, "allocations per operation", "每次操作内存分配次数")
X(M_MN_CYCLES, "estimated cycles per operation", "每次操作估计周期数")
X(M_MN_REOPENED, "connections reopened per 1000 operations", "每 1000 次操作重新打开的连接")
X(M_MN_STALL, "longest reply gap", "最长无回复间隔")
X(M_MN_DECAY, "decay over the window", "窗口内的衰减")
X(M_SERIES_H, "Over time", "随时间变化")
X(M_SERIES_INTRO,
  "Throughput per interval of every successful run, the versions overlaid, for the "
  "configurations whose decay (the last fifth of the window against the first) or longest "
  "reply gap was decided or stands out.",
  "每次成功运行按时间间隔的吞吐量（各版本叠加），仅针对衰减（窗口最后五分之一对比最初五分之一）"
  "或最长无回复间隔已判定或较突出的配置。")
X(M_SERIES_AXIS, "seconds into the measured window", "测量窗口内的秒数")
X(M_SERIES_WHY_DECAY, "decay", "衰减")
X(M_SERIES_WHY_STALL, "longest reply gap", "最长无回复间隔")
X(M_SERIES_WHY_BOTH, "decay and longest reply gap", "衰减与最长无回复间隔")
X(M_SERIES_LINE,
  "Over time: the throughput series of {0} of {1} configurations, whose decay or longest "
  "reply gap was decided or stands out, are drawn in report.html.",
  "随时间变化：{1} 个配置中有 {0} 个的衰减或最长无回复间隔已判定或较突出，其吞吐量序列绘于 "
  "report.html。")
X(M_METHOD_SEQ,
  "Method: a sequence; each version's server is started once per round and serves the {3} "
  "configurations one after another as steps, in the order of \"Step by step\", then stops; "
  "each step is measured in its own window ({1} s warm-up, {2} s measurement); {0} rounds, "
  "and the order of the versions alternates between rounds. Tables show median [min–max] over "
  "the runs: a range is {0} observations, not a confidence interval.",
  "方法：序列运行；每一轮中每个版本的服务器只启动一次，按“逐步结果”中的顺序依次服务这 {3} "
  "个配置（每个配置为一步），之后停止；每一步在自己的窗口内测量（预热 {1} 秒，测量 {2} 秒）；共 "
  "{0} 轮，轮与轮之间交替版本顺序。表格给出各次运行的中位数 [最小值–最大值]：一个区间是 {0} "
  "次观测，不是置信区间。")
X(M_H_STEPS, "Step by step", "逐步结果")
X(M_STEPS_INTRO,
  "One server process per version and round served these {0} steps in this order. Each step "
  "is compared like any configuration, but its server had already served the steps before it "
  "(their keys, lists, memory and whatever else builds up); its server CPU covers the step's "
  "own window only.",
  "每个版本每一轮由一个服务器进程按此顺序服务这 {0} "
  "步。每一步像其他配置一样比较，但其服务器已经服务过之前的各步（其键、列表、内存以及其他累积的状态"
  "）；"
  "其服务器 CPU 只计该步自己的窗口。")
X(M_COL_STEP, "Step", "步骤")
X(M_STEPS_FIRST,
  "`{0}` against `{1}`: throughput is first regressed at step {2} of {3}, {4} ({5}).",
  "`{0}` 对比 `{1}`：吞吐量在 {3} 步中的第 {2} 步首次退步，即 {4}（{5}）。")
X(M_STEPS_NONE, "`{0}` against `{1}`: no step's throughput is regressed.",
  "`{0}` 对比 `{1}`：没有任何一步的吞吐量退步。")
X(M_STEPS_FRESH_INTRO,
  "Beside each step, the same configuration with a fresh server per run, from `{0}`.",
  "每一步旁边是同一配置每次运行都用全新服务器的结果，来自 `{0}`。")
X(M_STEPS_BUILDS,
  "`{0}` against `{1}`: step {2}, {3}, is {4} through the sequence and {5} ({6}) with a fresh "
  "server per run: the change builds up over the server's life.",
  "`{0}` 对比 `{1}`：第 {2} 步（{3}）在序列中为 {4}，每次用全新服务器时为 "
  "{5}（{6}）：这一变化随服务器"
  "运行时间累积。")
X(M_STEPS_FRESH_TOO,
  "`{0}` against `{1}`: step {2}, {3}, is regressed with a fresh server per run too ({4}): the "
  "change does not need a long-lived server.",
  "`{0}` 对比 `{1}`：第 {2} "
  "步（{3}）每次用全新服务器时同样退步（{4}）：这一变化不需要长期运行的服务器。")
X(M_STEPS_STATE_SAME,
  "`{0}` and `{1}` left the same number of keys after every step: each step began from the "
  "same data.",
  "`{0}` 与 `{1}` 每一步之后留下的键数相同：每一步都从相同的数据开始。")
X(M_STEPS_STATE_DIFF,
  "`{0}` and `{1}` did not leave the same data: after step {2}, {3}, the server held {4} keys "
  "under `{0}` and {5} under `{1}`, so the steps after it began from different state (steps "
  "of a fixed request count, or a keyspace the runs fill, begin alike).",
  "`{0}` 与 `{1}` 留下的数据不同：第 {2} 步（{3}）之后，`{0}` 的服务器有 {4} 个键，`{1}` 的有 {5} "
  "个，因此其后的步骤从不同的状态开始（固定请求数的步骤，或运行能填满的键空间，才会从相同状态开始）"
  "。")
X(M_COMPLETE_ROWS, "{0} of {1} configurations complete; {2} of {3} runs ok, {4} failed.",
  "{1} 个配置中 {0} 个完整；{3} 次运行中 {2} 次成功，{4} 次失败。")
X(M_REOPENED,
  "Connections the server closed on purpose (a limit of requests or of idle time) were "
  "reopened by the driver in {0} of {1} configurations; per 1000 operations, the largest "
  "median: {2}.",
  "在 {1} 个配置中的 {0} 个里，服务器有意关闭的连接（请求数或空闲时间的上限）由驱动重新打开；"
  "每 1000 次操作的最大中位数：{2}。")
X(M_DRIVER_ERRORS,
  "Driver errors over the successful runs: connect {0}, I/O {1}, protocol {2}, verify {3}, "
  "timeout {4}.",
  "成功运行中的驱动错误：连接 {0}，I/O {1}，协议 {2}，校验 {3}，超时 {4}。")
X(M_FAILED_RUN, "Failed run: {0}, `{1}`, round {2}: {3}", "失败的运行：{0}，`{1}`，第 {2} 轮：{3}")
X(M_CONFIRM_ROWS,
  "Adaptive confirmation (at most {0} extra rounds per row, fixed before the run; the extra "
  "rounds count whatever they show, and a row that got them is judged on the median of its "
  "per-round ratios, throughput's given here, not on the tables' change of the medians): {1}.",
  "自适应确认（每个配置最多 {0} 个额外轮次，运行前已固定；额外轮次无论结果如何都计入，"
  "增加了轮次的配置按各轮比值的中位数判定（此处给出吞吐量的），而非表中两个中位数之比的变化）："
  "{1}。")
X(M_CONFIRM_ROW,
  "{0} got {1} extra rounds (throughput: the median per-round change [its 90% interval], and "
  "the p of the moderated paired test: {2})",
  "{0} 增加了 {1} 轮（吞吐量：各轮变化的中位数［其 90% 区间］，以及调节配对检验的 p：{2}）")
/* The confirmation rule: the English is confirm_words.h's CONFIRM_RULE_EN, as meta.json records
 * it. */
X(M_CONFIRM_RULE_TEXT, CONFIRM_RULE_EN,
  "某个参与判定的指标未判定（运行次数太少、噪声大于阈值或运行受到干扰）时，该配置处于临界；"
  "每次再交替运行两轮，直到没有参与判定的指标未判定，最多到上限为止。增加轮次后，其变化取各轮"
  "配对比值的中位数（同一轮两次运行共有的漂移在比值中抵消），且只有各轮对数比值的调节配对检验"
  "达到各次判断共享的 2/252 预算（达到上限之前每次为 2/252 ÷（4 × 判断次数，即上限的一半），"
  "达到上限时为 2/252 的 3/4）时，退步或改进才算数")
X(M_CONFIRM_RULE, " Rule: {0}.", "规则：{0}。")
X(M_CONFIRM_NONE,
  "Adaptive confirmation was on (at most {0} extra rounds per row); no row was borderline.",
  "自适应确认已开启（每个配置最多 {0} 个额外轮次）；没有处于临界的配置。")
X(M_INCOMPLETE_ROW, "Incomplete: {0} ({1} of {2} runs recorded)",
  "不完整：{0}（记录了 {2} 次中的 {1} 次）")
X(M_WEAKNESSES, "What weakens this measurement:", "削弱本次测量的因素：")
X(M_WEAK_NONE,
  "Nothing known weakens this measurement (no failed or unstable rows, TLS "
  "verification on where used, no machine warning recorded).",
  "未发现削弱本次测量的因素（没有失败或不稳定的行，使用 TLS 时证书校验开启，没有记录机器警告）。")
X(M_WEAK_NOT_COUNTABLE,
  "Not countable here, so judged on their timed metrics alone: {0} (first cause: {1}).",
  "在此无法计数，因此仅按计时指标判定：{0}（首个原因：{1}）。")
X(M_WEAK_INSECURE, "TLS certificate verification was off (`--insecure`) in: {0}.",
  "以下配置关闭了 TLS 证书校验（`--insecure`）：{0}。")
X(M_WEAK_UNSTABLE,
  "Undecided for their noise, too large against the threshold for any count of runs up to 50 "
  "(a side spreading over {0}% is the usual cause): {1}.",
  "因噪声而未判定，噪声相对阈值太大，每边最多 50 次运行也无法判定（通常是某一方的离散度超过 "
  "{0}%）：{1}。")
X(M_WEAK_STOPPED, "The run stopped before its plan was done: {0}.", "运行在计划完成之前停止：{0}。")
X(M_WEAK_FAILED, "Failed runs: {0}; their rows carry the verdict `failed`.",
  "失败的运行：{0} 次；相应行的结论为 `failed`。")
X(M_WEAK_MACHINE, "Machine: {0}", "机器：{0}")
X(M_WEAK_HASH,
  "`runs.jsonl` no longer matches the SHA-256 recorded in `meta.json` (recorded `{0}`, now "
  "`{1}`): the figures come from a changed dataset.",
  "`runs.jsonl` 与 `meta.json` 中记录的 SHA-256 不再一致（记录为 `{0}`，现为 "
  "`{1}`）：这些数字来自被改动过的数据集。")
X(M_WEAK_NOMETA, "`meta.json` is missing: versions, settings and environment are unknown.",
  "缺少 `meta.json`：版本、设置和环境均未知。")
X(M_COL_CONFIG, "Configuration", "配置")
X(M_COL_BASE_KS, "Baseline k/s", "基线 k/s")
X(M_COL_CAND_KS, "Candidate k/s", "候选 k/s")
X(M_COL_CHANGE, "Change", "变化")
X(M_COL_CPU_BC, "CPU % (baseline → candidate)", "CPU %（基线 → 候选）")
X(M_COL_EFF_CHANGE, "CPU efficiency change", "CPU 效率变化")
X(M_COL_SERVER_CPU, "Server CPU % (baseline → candidate)", "服务器 CPU %（基线 → 候选）")
X(M_COL_VERDICT, "Verdict", "结论")
X(M_COL_BASE_P50, "Baseline P50", "基线 P50")
X(M_COL_CAND_P50, "Candidate P50", "候选 P50")
X(M_COL_BASE_P99, "Baseline P99", "基线 P99")
X(M_COL_CAND_P99, "Candidate P99", "候选 P99")
X(M_COL_P99_CHANGE, "P99 change", "P99 变化")
X(M_COL_BASE, "Baseline", "基线")
X(M_COL_CAND, "Candidate", "候选")
X(M_COL_KS, "{0} k/s", "{0} k/s")
X(M_COL_VS, "{0} vs {1}", "{0} 对比 {1}")
X(M_COL_FRESH, "{0} vs {1}, fresh servers", "{0} 对比 {1}（全新服务器）")
X(M_COL_P_TPUT, "Throughput p", "吞吐量 p")
X(M_COL_PAIRED, "Paired ratio median [min–max]", "配对比值 中位数 [最小–最大]")
X(M_COL_OVERLAP, "Ranges overlap", "区间重叠")
X(M_COL_P_P99, "P99 p", "P99 p")
X(M_YES, "yes", "是")
X(M_NO, "no", "否")
X(M_EFF_NOTE, "efficiency {0}", "效率{0}")
X(M_DEF_THROUGHPUT,
  "Throughput: Redis rows count successful commands per second; TCP, HTTP and WebSocket rows "
  "count message round trips per second (k/s = thousands per second). Every configuration "
  "stands alone: figures are never summed across configurations.",
  "吞吐量：Redis 行统计每秒成功的命令数；TCP、HTTP 和 WebSocket 行统计每秒消息往返次数（k/s = "
  "每秒千次）。每个配置独立成行：不同配置的数字从不相加。")
X(M_DEF_CPU,
  "CPU %: one full core is 100%. It is the driver (client) process over the measured window; "
  "in `--serve` mode the one process that hosts both client and server. Server CPU is listed "
  "separately when pairbench started the server; it covers warm-up and measurement together.",
  "CPU %：一个满载核心为 100%。统计的是测量窗口内的驱动（客户端）进程；在 `--serve` "
  "模式下是同时承载客户端和服务器的那个进程。当服务器由 pairbench 启动时，服务器 CPU "
  "单独列出，它同时覆盖预热和测量两个阶段。")
X(M_DEF_EFFICIENCY,
  "CPU efficiency = throughput per CPU core (throughput ÷ (CPU % ÷ 100)), computed for each "
  "run before the median.",
  "CPU 效率 = 每个 CPU 核心的吞吐量（吞吐量 ÷ (CPU % ÷ 100)），先按每次运行计算，再取中位数。")
X(M_DEF_CHANGE, "Change = candidate median ÷ baseline median − 1.",
  "变化 = 候选中位数 ÷ 基线中位数 − 1。")
X(M_DEF_LATENCY,
  "Latency is the closed-loop batch round trip: from writing a batch's first byte to reading "
  "its last reply, including time the batch waited in the client. It is not single-command "
  "latency. With one message per batch (pipeline 1, as the TCP, HTTP and WebSocket rows use) "
  "it is one message round trip.",
  "延迟是闭环的批次往返时间：从写出批次的第一个字节到读到其最后一个回复，包含批次在客户端排队的时间"
  "。"
  "它不是单条命令的延迟。每批一条消息时（pipeline 1，TCP、HTTP 和 WebSocket 行即如此），"
  "它就是一次消息往返。")
X(M_DEF_LATENCY_RATE,
  "On a row at a fixed rate (open loop, `rate`) latency counts instead from each batch's due "
  "time on the schedule to its last reply: time a batch waited because the server or the "
  "driver fell behind is counted in full.",
  "固定速率的行（开环，`rate`）中，延迟改为从批次在计划中的到期时间算到读到其最后一个回复："
  "批次因服务器或驱动落后而等待的时间全部计入。")
X(M_RSS_SAME,
  "The driver's peak RSS was {0}–{1} MiB in every run of every version, and `~` in every "
  "configuration, so no table.",
  "驱动程序的峰值 RSS 在每个版本的每次运行中都是 {0}–{1} MiB，每个配置都是 `~`，因此不列表格。")
X(M_DEF_RSS, "Peak RSS is the driver process's lifetime peak resident memory.",
  "峰值 RSS 是驱动进程整个生命周期内的常驻内存峰值。")
X(M_EVID_RULE,
  "A metric is flagged `regressed` or `improved` only when its change passes the threshold "
  "({0}) and the evidence decides: a t-test of the log change (paired per round where every "
  "run has its pair) whose variance is shrunk toward the noise of every row of this run "
  "(moderated statistics, as limma does) reaches p ≤ 0.05. `~` means the 90% interval of the "
  "change lies inside ±threshold: bounded, not merely unflagged. `undecided` means neither, "
  "with its reason (too few runs, noise larger than the threshold, disturbed runs) and the "
  "runs a side that would decide it. A side's spread above {1}% is reported, not a veto.",
  "只有当变化超过阈值（{0}）且证据足以判定时，指标才会被标记为 `regressed`（退步）或 "
  "`improved`（改进）：对数变化的 t 检验（每次运行都有配对时按轮配对），其方差向本次运行所有"
  "行的噪声收缩（调节统计量，如 limma），p ≤ 0.05。`~` 表示变化的 90% 区间落在 ±阈值之内："
  "是有界的，而不只是未被标记。`undecided`（未判定）表示两者都不是，并给出原因（运行次数太少、"
  "噪声大于阈值、运行受到干扰）以及每边需要多少次运行才能判定。某一方超过 {1}% 的离散度只作"
  "报告，不否决结论。")
X(M_EVID_MWU,
  "With {0} runs a side, disjoint ranges are the most extreme Mann–Whitney outcome: exact "
  "two-sided p = 2/{1} ≈ {2}. Every paired ratio on one side of 1 happens with probability "
  "2/2^{0} = {3} when nothing changed.",
  "每方 {0} 次运行时，区间不相交是 Mann–Whitney 检验最极端的结果：精确双侧 p = 2/{1} ≈ "
  "{2}。在没有任何变化时，所有配对比值都在 1 的同一侧的概率为 2/2^{0} = {3}。")
X(M_EVID_CHANCE,
  "With {0} comparisons per metric, about {1} would meet the evidence test by chance alone "
  "({2} with disjoint ranges); the threshold makes a false flag rarer still.",
  "每个指标有 {0} 次比较，仅凭偶然约有 {1} 次会满足证据条件（区间不相交的约 {2} "
  "次）；阈值条件使误报更加罕见。")
X(M_EVID_FLOOR,
  "Evidence level: each metric is judged at {0}, before the row's family shares it; with {1} "
  "runs a side the test has {2} degrees of freedom of its own, and the run's other rows lend "
  "it more.",
  "证据水平：每个指标在 {0} 的水平上判断，再由该行的指标族分享；每方 {1} 次运行时，检验自身有 "
  "{2} 个自由度，本次运行的其他行还会借给它更多。")
X(M_EVID_FAMILY,
  "A row as a family: Holm's procedure across a row's {0} gated timed metrics keeps the chance "
  "that a row of identical versions is called `regressed` or `improved` on any of them at most "
  "{1} (here {2}). Counted metrics (instructions, system calls, allocations) repeat closely and "
  "keep their own rule.",
  "按行作为一族：Holm 方法在每行 {0} 个受检的计时指标之间校正，使相同版本的一行在任一指标上"
  "被判为 `regressed` 或 `improved` 的概率至多为 {1}（此处为 {2}）。"
  "计数指标（指令、系统调用、内存分配）重复性好，沿用各自的规则。")
X(M_EVID_FAMILY_NO,
  "A row as a family: Holm's procedure across a row's {0} gated timed metrics keeps the chance "
  "that a row of identical versions is called `regressed` or `improved` on any of them at most "
  "{1}; with no variance measured ({2}) no timed metric is decided here (undecided, too few "
  "runs). Counted metrics (instructions, system calls, allocations) repeat closely and keep "
  "their own rule.",
  "按行作为一族：Holm 方法在每行 {0} 个受检的计时指标之间校正，使相同版本的一行在任一指标上"
  "被判为 `regressed` 或 `improved` 的概率至多为 {1}；由于没有测得方差（{2}），此处计时指标均"
  "未判定（运行次数太少）。计数指标（指令、系统调用、内存分配）重复性好，沿用各自的规则。")
X(M_EVID_FLOOR_NO,
  "Evidence level: each metric is judged at {0}. With {1} run a side there is no variance to "
  "judge by ({2}): every timed metric is `undecided` (too few runs), never `~`; use at least 3 "
  "runs a side.",
  "证据水平：每个指标在 {0} 的水平上判断。每方 {1} 次运行时没有可供判断的方差（{2}）：所有计时"
  "指标均为 `undecided`（未判定，运行次数太少），而不是 `~`；每方至少需要 3 次运行。")
X(M_EVID_TABLE, "Exact two-sided Mann–Whitney p and paired ratios per configuration:",
  "各配置的精确双侧 Mann–Whitney p 值与配对比值：")
X(M_THRESHOLDS, "throughput {0}%, CPU efficiency {1}%, P50 {2}%, P99 {3}%, peak RSS {4}%",
  "吞吐量 {0}%，CPU 效率 {1}%，P50 {2}%，P99 {3}%，峰值 RSS {4}%")
X(M_DETAILS_FULL, "Full table ({0} configurations)", "完整表格（{0} 个配置）")
X(M_NOTABLE_ONLY,
  "{0} configurations: the table shows the {1} that stand out; the full table follows.",
  "共 {0} 个配置：此表只列出明显不同的 {1} 个；完整表格见下。")
X(M_BEST_BOLD, "The best value of each row is in **bold**.", "每行最佳值以**粗体**标出。")
X(M_COL_ITEM, "Item", "项目")
X(M_COL_VALUE, "Value", "值")
X(M_ENV_INTERVAL, "Measurement interval (UTC)", "测量时间段（UTC）")
X(M_ENV_MACHINE, "Machine", "机器")
X(M_ENV_CPU, "CPU", "CPU")
X(M_ENV_CORES, "CPU cores (physical / logical)", "CPU 核心（物理 / 逻辑）")
X(M_ENV_MEMORY, "Memory", "内存")
X(M_ENV_OS, "Operating system", "操作系统")
X(M_ENV_KERNEL, "Kernel", "内核")
X(M_ENV_GOVERNOR, "CPU frequency governor", "CPU 频率调节器")
X(M_ENV_CPUIDLE, "CPU idle driver", "CPU 空闲驱动")
X(M_ENV_LOAD, "Load average (1 min; start → end)", "平均负载（1 分钟；开始 → 结束）")
X(M_ENV_PINNING, "CPU pinning (driver / server)", "CPU 绑定（驱动 / 服务器）")
X(M_ENV_COMPILER, "Compiler and flags (driver build)", "编译器与编译选项（驱动构建）")
X(M_ENV_LIBS, "Libraries", "依赖库")
X(M_ENV_PAIRBENCH, "pairbench", "pairbench")
X(M_ENV_SETTINGS, "Warm-up / duration / rounds / grace", "预热 / 时长 / 轮数 / 宽限")
X(M_ENV_CONFIGS, "Configurations", "配置数")
X(M_ENV_GRIDS, "Grids", "网格")
X(M_ENV_SPEC, "Spec file", "规格文件")
X(M_ENV_NETWORK, "Network", "网络")
X(M_ENV_NETWORK_V, "client and server on one machine, loopback",
  "客户端与服务器在同一台机器上，经回环地址")
X(M_ENV_NETWORK_APART,
  "client and server apart: the driver ran here, every server on {0} ({1}, {2} CPUs, kernel {3}) "
  "over ssh; the idle round trip was {4} µs before the runs and {5} µs after",
  "客户端与服务器分处两台机器：驱动在本机运行，所有服务器经 ssh 在 {0}（{1}，{2} 个 CPU，内核 "
  "{3}）上运行；空闲往返时间运行前为 {4} µs，运行后为 {5} µs")
X(M_ENV_SHARD, "Shard", "分片")
X(M_UNKNOWN, "unknown", "未知")
X(M_NONE, "none", "无")
X(M_COL_VERSION, "Version", "版本")
X(M_COL_REF, "Ref", "引用")
X(M_COL_COMMIT, "Commit", "提交")
X(M_COL_SERVER, "Server", "服务器")
X(M_COL_SERVER_VERSION, "Server version", "服务器版本")
X(M_COL_DRIVER, "Driver", "驱动")
X(M_COL_SOURCE, "Measured source", "被测源文件")
X(M_COL_SHA, "SHA-256", "SHA-256")
X(M_PROV_DATASET, "Raw dataset `{0}`: SHA-256 `{1}`.", "原始数据集 `{0}`：SHA-256 `{1}`。")
X(M_PROV_DATASET_OK, "It matches the hash recorded in `meta.json`.",
  "与 `meta.json` 中记录的哈希一致。")
X(M_PROV_DATASET_BAD, "It does NOT match the hash recorded in `meta.json` (`{0}`).",
  "与 `meta.json` 中记录的哈希（`{0}`）不一致。")
X(M_PROV_GRID, "grid `{0}`", "网格 `{0}`")
X(M_PROV_NONE, "No measured source files were named (`hash_sources` in the spec).",
  "规格中没有指定被测源文件（`hash_sources`）。")
X(M_REPRO_CMD, "The command that produced this dataset (run it from `{0}`):",
  "生成本数据集的命令（在 `{0}` 下运行）：")
X(M_REPRO_RENDER, "Re-render these reports from the dataset alone, without measuring again:",
  "仅根据数据集重新生成这些报告，不重新测量：")
X(M_REPRO_UNKNOWN, "The command line was not recorded.", "未记录命令行。")
X(M_COL_VTM, "Version / transport / mode", "版本 / 传输 / 模式")
X(M_COL_PAYLOAD, "Payload B", "负载 B")
X(M_COL_CLIENTS, "Clients", "客户端数")
X(M_COL_BATCH, "Commands per batch / batches in flight", "每批命令数 / 在途批次数")
X(M_COL_OPS, "ops/s", "次/秒")
X(M_COL_P50_US, "Batch P50 µs", "批次 P50 µs")
X(M_COL_P99_US, "Batch P99 µs", "批次 P99 µs")
X(M_COL_CPU, "CPU %", "CPU %")
X(M_COL_RSS, "RSS MiB", "RSS MiB")
X(M_COL_ROUNDS, "Rounds", "轮数")
X(M_ONE_NOTE,
  "ops/s is shown as median [min–max] over the rounds; the other columns are medians. Local "
  "results on a shared machine are not production capacity.",
  "次/秒 以各轮的 中位数 [最小–最大] "
  "给出；其余列为中位数。共享机器上的本地结果不代表生产环境容量。")
X(M_ONE_SUMMARY, "{0} configurations of `{1}`, {2} of {3} runs ok.",
  "`{1}` 的 {0} 个配置，{3} 次运行中 {2} 次成功。")
X(M_SERVE_MODE, "serve", "同进程服务")
X(M_RUN_DIR, "<run directory>", "<运行目录>")
X(M_PERIOD, ".", "。")
X(M_ONE_BEST, "Highest throughput: {0}, {1} ops/s. Lowest batch P99: {2}, {3} µs.",
  "吞吐量最高：{0}，{1} 次/秒。批次 P99 最低：{2}，{3} µs。")
X(M_AUTH, "AUTH", "AUTH")
X(M_SENT_SEP, " ", "")
X(M_FLAG, "{0} {1}", "{0}{1}")
X(M_WEAK_LOAD, "The machine was loaded at start: load average {0} on {1} logical CPUs.",
  "开始时机器负载较高：{1} 个逻辑 CPU 上的平均负载为 {0}。")
X(M_WARN_LOAD_START, "The machine was loaded at start: load average {0} on {1} CPUs.",
  "机器：开始时负载较高，{1} 个 CPU 上的平均负载为 {0}。")
X(M_WARN_LOAD_END, "The machine was loaded at the end: load average {0} on {1} CPUs.",
  "机器：结束时负载较高，{1} 个 CPU 上的平均负载为 {0}。")
X(M_WARN_HALT_POLL,
  "idle CPUs halt without polling first (cpuidle 'haltpoll', guest_halt_poll_ns 0): each "
  "wake-up is an exit to the host, which slows rows that wait on single round trips",
  "机器：空闲 CPU 不先轮询就进入停机（cpuidle 'haltpoll'，guest_halt_poll_ns 为 "
  "0）：每次唤醒都是一次到宿主机的退出，会拖慢等待单次往返的配置。")
X(M_WARN_GOVERNOR, "The CPU frequency governor is '{0}', not 'performance'.",
  "机器：CPU 频率调节器为 '{0}'，而不是 'performance'。")
X(M_ENV_SCOPE, "Scope", "范围")
X(M_ENV_SCOPE_V,
  "the {0} configurations above on this one machine over loopback; other payloads, "
  "concurrency levels, networks, machines and workloads are not covered",
  "仅限上述 {0} 个配置、这一台机器、经回环地址；其他负载大小、并发度、网络、机器和工作负载均未覆盖")
X(M_ENV_SCOPE_APART_V,
  "the {0} configurations above, the driver on this machine and the servers on the server host, "
  "over that one path; other payloads, concurrency levels, networks, machines and workloads are "
  "not covered",
  "仅限上述 {0} 个配置、驱动在本机而服务器在服务器主机上、经这一条网络路径；"
  "其他负载大小、并发度、网络、机器和工作负载均未覆盖")
X(M_UNDECIDED,
  "Undecided: {0} of {1} configurations could not be decided — too few runs for their noise, "
  "noise larger than the threshold, or disturbed runs; the tables say which and how many runs "
  "would decide — so nothing is claimed about them (not \"~\"): {2}.",
  "未判定：{1} 个配置中有 {0} 个无法判定——相对其噪声运行次数太少、噪声大于阈值，或运行受到干扰；"
  "表格说明了原因以及需要多少次运行才能判定——因此不对其下任何结论（并非“~”）：{2}。")
X(M_UNJUDGED, "{0} of {1} configurations cannot be fully judged (failed or missing runs): {2}.",
  "{1} 个配置中有 {0} 个无法完全判断（运行失败或缺失）：{2}。")
X(M_REPLACED, "Runs recorded again later for the same round (resume): {0}; the later run counts.",
  "有 {0} 次较早的尝试在同一轮中被重新记录（续跑）；以较晚的运行为准。")
X(M_H_INSTRUCTIONS, "Instructions per operation (counted)", "每次操作的指令数（计数）")
X(M_INSTR_LIMITS,
  "User-space instructions of the server per successful operation, counted by {0} in runs of "
  "their own over a fixed number of requests (start-up, warm-up and shut-down outside the "
  "window; the timer entry points {1} left out and the idle rate subtracted). The counted "
  "server ran about {2}× slower than in the timed runs. A count repeats within a fraction of "
  "a percent where wall-clock figures swing, but it cannot see waiting, system calls, lock "
  "contention, cache misses or I/O: throughput and P99 above still cover those.",
  "服务器每次成功操作的用户态指令数，由 {0} "
  "在独立的运行中对固定数量的请求计数（启动、预热和关闭不在窗口内；定时器入口 {1} "
  "不计入，并减去空闲速率）。计数时服务器比计时运行慢约 {2} "
  "倍。指令计数的重复误差远小于百分之一，而挂钟数据波动很大；但它看不到等待、系统调用、锁竞争、缓"
  "存未命中和 I/O：上面的吞吐量和 P99 仍然覆盖这些。")
X(M_INSTR_LIMITS_COUNTERS,
  "User-space instructions of the server per successful operation, counted by hardware "
  "counters ({0} with perf_event_open, one per thread of every process of the server, "
  "following the threads and processes they create) during the timed runs at full speed, "
  "between the driver's window marks. The count holds the server's timers and periodic work "
  "that ran in the window (nothing is left out or subtracted, unlike a count under valgrind), "
  "and a counter the kernel multiplexed is scaled by the time it ran. A count repeats within "
  "a fraction of a percent where wall-clock figures swing, but it cannot see waiting, system "
  "calls, lock contention, cache misses or I/O: throughput and P99 above still cover those.",
  "服务器每次成功操作的用户态指令数，由硬件计数器（{0}，通过 perf_event_open，"
  "服务器每个进程的每个线程一个，并跟随它们创建的线程和进程）在全速的计时运行中、"
  "驱动程序的窗口标记之间计数。计数包含窗口内服务器的定时器和周期性工作（与 valgrind "
  "计数不同，不排除也不扣除任何部分）；被内核复用的计数器按其实际运行时间换算。"
  "指令计数的重复误差远小于百分之一，而挂钟数据波动很大；但它看不到等待、系统调用、锁竞争、"
  "缓存未命中和 I/O：上面的吞吐量和 P99 仍然覆盖这些。")
X(M_INSTR_LIMITS_DRIVER,
  "User-space instructions of the driver (the versions differ only in their driver, so the "
  "driver is the process counted; the server ran normally) per successful operation, counted "
  "by {0} as the difference between a run of N requests and one of 2N, so start-up, "
  "connection set-up and shut-down, the same in both, cancel out. A count repeats within a "
  "fraction of a percent where wall-clock figures swing, but it cannot see waiting, system "
  "calls, lock contention, cache misses or I/O: throughput and P99 above still cover those.",
  "驱动程序每次成功操作的用户态指令数（各版本只有驱动程序不同，因此计数的是驱动程序；"
  "服务器正常运行），由 {0} 以 N 个请求与 2N 个请求两次运行之差计数，"
  "两次相同的启动、建立连接和关闭因此相互抵消。指令计数的重复误差远小于百分之一，"
  "而挂钟数据波动很大；但它看不到等待、系统调用、锁竞争、缓存未命中和 I/O："
  "上面的吞吐量和 P99 仍然覆盖这些。")
X(M_COL_INSTR, "instructions/op", "指令/操作")
X(M_H_INSTR_WHERE, "Where the instructions went", "指令花在了哪里")
X(H_FOREST, "Change against the baseline", "相对基线的变化")
X(H_FOREST_NOTE,
  "Per row: the median of the paired per-round ratios minus 1 (dot) with its 90% interval "
  "(line); the shaded band is ± the row's threshold; the colour is the verdict. Right of zero "
  "is higher; for latency higher is worse.",
  "每行：逐轮配对比值的中位数减 1（圆点）及其 90% 区间（线段）；阴影带为该行阈值 ±；"
  "颜色表示判定。零点右侧为更高；对延迟而言更高即更差。")
X(H_FOREST_BAND, "± threshold", "± 阈值")
X(H_TITLE_ONE, "Benchmark results: ", "基准测试结果：")
X(H_TITLE_CMP, "Performance comparison: ", "性能对比：")
X(H_METHOD,
  "Each version ran {0} times per configuration in fresh processes ({1} s warm-up, {2} s "
  "measured), adjacent and in alternating order. Figures are median [min–max] over the runs; "
  "the ranges are the observed runs, not confidence intervals.",
  "每个版本在每个配置下以全新进程运行 {0} 次（预热 {1} 秒，测量 {2} 秒），"
  "各版本相邻并交替顺序运行。数值为各次运行的 中位数 [最小值–最大值]；"
  "范围是观测值，不是置信区间。")
X(H_METHOD_ONE,
  "{0} runs per configuration in fresh processes ({1} s warm-up, {2} s measured). Figures "
  "are median [min–max] over the runs.",
  "每个配置以全新进程运行 {0} 次（预热 {1} 秒，测量 {2} 秒）。"
  "数值为各次运行的 中位数 [最小值–最大值]。")
X(H_CHARTS, "Charts", "图表")
X(H_CHARTS_NOTE,
  "Bars are the medians of the runs, whiskers span min–max; one bar per version (baseline "
  "first) in each configuration. Configurations are grouped by protocol · transport · "
  "payload; each group has its own scale, written in its band. Hover a bar for its figures.",
  "柱长为各次运行的中位数，须线为最小值–最大值；每个配置中每个版本一根柱（基线在前）。"
  "配置按 协议 · 传输 · 负载 "
  "分组，每组使用各自的刻度（标在组标题栏中）。鼠标悬停可查看数值。")
X(H_NO_VALUE, "no value", "无数据")
X(H_HIGHER_BETTER, "higher is better", "越高越好")
X(H_LOWER_BETTER, "lower is better", "越低越好")
X(H_UNIT_COMMANDS, "commands/s", "命令/秒")
X(H_UNIT_TRIPS, "message round trips/s", "消息往返/秒")
X(H_UNIT_MIXED, "operations/s (Redis: commands, others: round trips)",
  "操作/秒（Redis：命令；其他：消息往返）")
X(H_COLOCATED, "colocated", "同进程")
X(H_CLIENTS, " clients", " 连接")
X(H_WORKER, " worker", " 工作线程")
X(H_WORKERS, " workers", " 工作线程")
X(H_NAV_TABLES, "Tables", "表格")
X(H_NAV_ENV, "Environment", "测量环境")
X(H_NAV_PROVENANCE, "Provenance", "来源与校验")
X(H_PAREN_OPEN, " (", "（")
X(H_PAREN_CLOSE, ")", "）")
X(H_FOOTER, "Written by pairbench", "由 pairbench 生成")
X(H_ENV_CPU_CORES, "CPU cores", "CPU 核心")
X(H_ENV_ARCHITECTURE, "Architecture", "架构")
X(H_ENV_CPU_FREQUENCY_GOVERNOR, "CPU frequency governor", "CPU 调频策略")
X(H_ENV_NOT_PINNED, "not pinned", "未绑定")
X(H_ENV_CPU_AFFINITY, "CPU affinity", "CPU 亲和性")
X(H_ENV_DRIVER_PINNED_TO_CPUS, "Driver pinned to CPUs", "驱动绑定的 CPU")
X(H_ENV_SERVER_PINNED_TO_CPUS, "Server pinned to CPUs", "服务器绑定的 CPU")
X(H_ENV_LOAD_AVERAGE_AT_START, "Load average at start / end", "开始 / 结束时的平均负载")
X(H_ENV_COMPILER_AND_FLAGS, "Compiler and flags", "编译器与编译选项")
X(H_ENV_DRIVER_BUILD, "Driver build", "驱动构建")
X(H_ENV_MEASUREMENT_INTERVAL_UTC, "Measurement interval (UTC)", "测量时间（UTC）")
X(H_ENV_ROUNDS, "Rounds", "轮次")
X(H_ENV_NONE_DRIVER_SERVE_OR, "none (driver --serve or external)",
  "无（驱动 --serve 或外部服务器）")
X(H_ENV_SERVER_COMMAND, "Server command", "服务器命令")
X(H_ENV_BASELINE, " (baseline)", "（基线）")
X(H_ENV_NONE_NAMED_BY_THE, "none named by the spec (hash_sources)",
  "规格文件未指定（hash_sources）")
X(H_ENV_GRID_FILE, "Grid file", "网格文件")
X(H_ENV_NAME, "Name", "名称")
X(H_ENV_CORES, "{0} physical, {1} logical", "{0} 个物理核心，{1} 个逻辑核心")
X(H_ENV_CORES_LOGICAL, "{0} logical", "{0} 个逻辑核心")
X(H_ENV_RUNS, "{0} runs per version, warm-up {1} s, duration {2} s",
  "每个版本 {0} 轮，预热 {1} 秒，测量 {2} 秒")
X(H_ENV_DATASET_SHA, "SHA-256 of the raw dataset `{0}`: `{1}`", "原始数据集的 SHA-256 `{0}`：`{1}`")
X(H_REPRO_CWD, "In `{0}`:", "在 `{0}` 中运行：")
X(H_TAB_K_S, "k/s", "千次/秒")
X(H_TAB_CHANGE, "change", "变化")
X(H_TAB_VERDICT, "verdict", "判定")
X(H_TAB_P50_CHANGE, "P50 change", "P50 变化")
X(H_TAB_LATENCY_S, "Latency (µs)", "延迟（微秒）")
X(H_TAB_K_OPS_S_PER, "k ops/s per core", "每核心千次/秒")
X(H_TAB_PEAK_RSS_MIB, "peak RSS MiB", "峰值 RSS MiB")
X(H_TAB_RSS_CHANGE, "RSS change", "RSS 变化")
X(H_TAB_CPU_EFFICIENCY_MEMORY_AND, "CPU efficiency, memory and server CPU",
  "CPU 效率、内存与服务器 CPU")
X(H_TAB_CPU_EFFICIENCY_AND_MEMORY, "CPU efficiency and memory", "CPU 效率与内存")
X(H_TAB_RANGES_OVERLAP, "ranges overlap", "范围重叠")
X(H_TAB_U_TEST_P, "U-test p", "U 检验 p")
X(H_TAB_PAIRED_RATIO, "paired ratio", "配对比值")
X(H_TAB_EVIDENCE_THROUGHPUT, "Evidence (throughput)", "证据（吞吐量）")
X(H_TAB_ECHO, "echo", "回显")
X(H_TAB_VERSION_TRANSPORT_MODE, "version / transport / mode", "版本 / 传输 / 模式")
X(H_TAB_PAYLOAD_B, "payload B", "负载 B")
X(H_TAB_CLIENTS, "clients", "连接数")
X(H_TAB_COMMANDS_PER_BATCH_BATCHES, "commands per batch / batches in flight",
  "每批命令数 / 在途批次")
X(H_TAB_OPS_S_K, "ops/s (k)", "操作/秒（千）")
X(H_TAB_BATCH_P50_S, "batch P50 µs", "批次 P50 微秒")
X(H_TAB_BATCH_P99_S, "batch P99 µs", "批次 P99 微秒")
X(H_TAB_ROUNDS, "rounds", "轮次")
/* report_html_tables.c: the tables' headers and notes */
X(H_TAB_SHOWN,
  "{0} configurations: this table shows the {1} that stand out (a verdict other than ~); the "
  "full table follows.",
  "共 {0} 个配置：此表只列出明显不同（判定不是 ~）的 {1} 个；完整表格见下。")
X(H_TAB_NONE_SHOWN,
  "{0} configurations, none stands out (every verdict is ~); the full table "
  "follows.",
  "共 {0} 个配置，没有明显不同的配置（判定均为 ~）；完整表格见下。")
X(H_TAB_CPU_OPEN, "CPU % (", "CPU %（")
X(H_TAB_SERVER_CPU, "server CPU %", "服务器 CPU %")
X(H_TAB_NOTE_THROUGHPUT,
  "Throughput: Redis counts successful commands per second; TCP, HTTP and WebSocket count "
  "message round trips per second. Configurations are never summed. CPU %: the client process "
  "(in --serve mode the colocated client/server process), 100% = one full core. CPU "
  "efficiency = throughput per CPU core, computed per run before the median. The verdict "
  "column is the throughput verdict.",
  "吞吐量：Redis 统计每秒成功的命令数；TCP、HTTP 和 WebSocket 统计每秒的消息往返次数。各配置从不"
  "相加。CPU %：客户端进程（--serve 模式下为客户端与服务器同在的进程），100% = 一个完整核心。CPU "
  "效率 = 每个 CPU 核心的吞吐量，先按每次运行计算再取中位数。判定列为吞吐量的判定。")
X(H_TAB_NOTE_LATENCY,
  "Latency is the closed-loop round trip of a whole batch, from writing its first byte to "
  "reading its last reply, including client queueing; it is not single-command latency. With "
  "pipeline 1 and window 1 a batch is one message round trip.",
  "延迟是整批命令的闭环往返时间：从写出第一个字节到读到最后一个回复，包含客户端排队时间，不是单"
  "条命令的延迟。当每批命令数为 1、在途批次为 1 时，一批就是一次消息往返。")
X(H_TAB_NOTE_SERVER_CPU,
  "Server CPU: the server process pairbench started, over warm-up and measurement together, "
  "100% = one full core; not part of the client CPU or the efficiency.",
  "服务器 CPU：pairbench 启动的服务器进程（预热与测量合计），100% = 一个完整核心；不计入客户端 "
  "CPU 与 CPU 效率。")
X(H_TAB_NOTE_OVERLAP,
  "Overlap flag: whether the min–max ranges of the baseline and the candidate share a value. ",
  "重叠标记：基线与候选版本的 最小值–最大值 范围是否有共同的值。")
X(H_TAB_NOTE_EXACT_P,
  "The exact p of every row is given. The paired ratio is candidate / baseline within each "
  "round, median [min–max].",
  "表中给出每行的精确 p 值。配对比值为每一轮中 候选 / 基线 的比值，取 中位数 [最小值–最大值]。")
X(H_TAB_NOTE_EXPECTED,
  " At the evidence level used (chance {0} per row and metric when nothing changed), about {1} "
  "of these rows would be flagged by chance alone.",
  "在所用的证据水平下（无变化时每行每个指标被误标的概率为 {0}），约有 {1} 行会仅因偶然而被标记。")
X(H_TAB_NOTE_DETAIL,
  "Batch RT is the closed-loop round trip of a whole batch including client queueing; CPU is "
  "the client process (100% = one full core); RSS is the process-lifetime peak; rounds = "
  "successful runs / planned runs.",
  "批次往返时间是整批命令的闭环往返时间，包含客户端排队；CPU 为客户端进程（100% = 一个完整核心）；"
  "RSS 为进程生命周期内的峰值；轮次 = 成功运行数 / 计划运行数。")
/* report_html_forest.c: the legend */
X(H_LEG_REGRESSED, "regressed", "退化")
X(H_LEG_IMPROVED, "improved", "改进")
X(H_LEG_SAME, "~", "无显著变化")
X(H_LEG_UNDECIDED, "undecided", "未判定")
X(H_LEG_FAILED, "failed", "失败")
X(H_SUM_COLON, ": ", "：")
X(H_SUM_NO_CONFIGURATION_OF, "No configuration of ", "没有 ")
X(H_SUM_CHANGED_BEYOND_ITS_THRESHOLD, " changed beyond its threshold with strong evidence.",
  " 的配置在超过阈值的同时具有充分证据。")
X(H_SUM_THE_LARGEST_THROUGHPUT_CHANGE, " The largest throughput change of ", " ")
X(H_SUM_THE_THROUGHPUT_RANGES_MIN, "The throughput ranges (min–max) of the baseline", "基线")
X(H_SUM_AND, " and ", "与 ")
X(H_SUM_ETC, ", …", " 等")
X(H_SUM_SEMICOLON, "; ", "；")
/* report_html_summary.c: the summary's sentences */
X(H_SUM_DECIDED, "{0} {1} ({2}); ", "{0} {1}（{2}）；")
X(H_SUM_TPUT_P99, "{0} throughput, {1} P99", "吞吐量 {0}，P99 {1}")
X(H_SUM_VERDICTS, " (throughput {0}, P99 {1})", "（吞吐量 {0}，P99 {1}）")
X(H_SUM_MORE_ROWS, "and {0} more (see the tables)", "另有 {0} 项（见表格）")
X(H_SUM_IS_ON, " is {0}, on ", " 的最大吞吐量变化为 {0}，出现在 ")
X(H_SUM_OVERLAP_ALL, " overlap in every one of the {0} configurations.",
  " 的吞吐量范围（最小值–最大值）在全部 {0} 个配置中都有重叠。")
X(H_SUM_OVERLAP_SOME,
  " do not overlap in {0} of {1} configurations: ", " 的吞吐量范围在 {0} / {1} 个配置中没有重叠：")
X(H_SUM_RANGES_NOTE,
  "The ranges are the observed runs, not confidence intervals. This measurement shows "
  "differences; it does not confirm their cause.",
  "范围是实际观测到的各次运行，不是置信区间。本次测量只显示差异，并不能确认差异的原因。")
X(H_SUM_ONE_VERSION, "One version, ", "单一版本 ")
X(H_SUM_MEASURED_IN, ", measured in {0} configurations.", "，共测量 {0} 个配置。")
X(H_SUM_HIGHEST, " Highest throughput: ", " 最高吞吐量：")
X(H_SUM_PER_S, "{0}/s", "{0}/秒")
X(H_SUM_ON, " on ", "，出现在 ")
X(H_SUM_LOWEST_P99, " Lowest batch P99: {0} µs on ", " 最低批次 P99：{0} 微秒，出现在 ")
X(H_SUM_FAILED_RUN, "Failed run: ", "失败的运行：")
X(H_SUM_ROUND, " · round {0}", " · 第 {0} 轮")
X(M_INSTR_WHERE,
  "Per configuration, the functions whose instructions per operation changed most (median "
  "over the counted runs; \"unknown\" where the binary has no symbol for the code).",
  "每个配置中，每次操作指令数变化最大的函数（各计数运行的中位数；二进制中没有符号的代码记为 "
  "\"unknown\"）。")
X(M_EXACT_PAIRS,
  "exact counts (fixed randomness, address layout and environment), decided per seed pair at "
  "{0}%:",
  "精确计数（随机数、地址布局和环境均已固定），按每个种子对判定，阈值 {0}%：")
X(M_EXACT_PAIR, " seed {0} {1}%", " 种子 {0} {1}%")
X(M_EXACT_NOT, "not exact, decided by the runs; `{0}`: {1}; `{2}`: {3}",
  "非精确计数，按各次运行判定；`{0}`：{1}；`{2}`：{3}")
X(M_EXACT_IS, "exact", "精确")
X(M_EXACT_CLOCK,
  "; virtual clock ({0} µs per event-loop wake-up with events, {1} µs per clock read: "
  "time-driven work counted at that rate)",
  "；虚拟时钟（每次有事件的事件循环唤醒 {0} 微秒，每次读时钟 {1} 微秒：定时工作按此速率计入）")
X(M_EXACT_CLOCK_REAL, "; real clock (time-driven work follows the window's wall-clock length)",
  "；真实时钟（定时工作随窗口的实际时长变化）")
X(M_COL_METRIC, "Metric", "指标")
X(M_GATED, " (gated)", "（受检）")
/* drift.md / drift.html (drift_report.c); {1}-style "s" arguments are English plurals */
X(D_TITLE, "pairbench drift report", "pairbench 漂移报告")
X(D_HISTORY, "History `{0}`: {1} night{2}, the newest `{3}` (started {4}{5}).",
  "历史 `{0}`：共 {1} 晚，最新一晚为 `{3}`（开始于 {4}{5}）。")
X(D_COMMIT, ", commit {0}", "，提交 {0}")
X(D_LEFT_OUT, "The index holds {0} line{1}; left out, and kept as they are: {2}.",
  "索引共 {0} 行；以下条目未计入，原样保留：{2}。")
X(D_OTHER_ENV,
  "{0} night{1} ran in another environment (machine, CPU, kernel or compiler) than the "
  "newest: marked below and left out of the series, not mixed in.",
  "有 {0} 晚的运行环境（机器、CPU、内核或编译器）与最新一晚不同：已在下方标出，并排除在序列之外，"
  "没有混入。")
X(D_OUTCOME_BAD, "**Outcome:** regression on the newest night in {0} (exit 1).",
  "**结果：**最新一晚出现回归：{0}（退出码 1）。")
X(D_OUTCOME_LEFT_OUT, "**Outcome:** {0} (exit 3).", "**结果：**{0}（退出码 3）。")
X(D_OUTCOME_OK, "**Outcome:** no regression on the newest night (exit 0).",
  "**结果：**最新一晚没有回归（退出码 0）。")
X(D_METHOD,
  "Method: for each configuration and metric, the series is the baseline version's median "
  "per night. The newest night is compared with the median of the previous {0} nights; Trend "
  "compares the median of the last {0} nights with the median of the {0} before them (a slow "
  "drift shows there before any single night does). Change points are found with E-divisive "
  "means (Matteson & James, 2014: energy distance with exponent 1, hierarchical bisection) "
  "and a permutation test (199 permutations, significance 0.05, at least 3 nights per "
  "segment), the method used on CI performance data. A change point is reported when the "
  "medians of the segments on its two sides differ by at least the metric's threshold, and is "
  "called a step or part of a slow drift by fitting a straight line plus a jump to the nights "
  "around it (a step when the jump's |t| exceeds 4). A regression step: the last reported "
  "change is a step in the bad direction, it happened within the last {0} nights, and the "
  "newest night is still worse than the nights before it by the threshold. The newest night "
  "is also judged on the night it happens, by the verdict rule of the comparisons: the log of "
  "its value against the mean log of the previous {0} nights, whose spread is the noise (a "
  "t-test of one new value, at least 3 nights before it); regressed when the change passes "
  "the threshold at p ≤ 0.05, with Holm's procedure across a configuration's gated timed "
  "metrics (one claim about the night), undecided when the nights' noise could make it. "
  "Thresholds: {1}. Only gated metrics decide the exit code.",
  "方法：对每个配置和指标，序列是基线版本每晚的中位数。最新一晚与之前 {0} "
  "晚的中位数比较；趋势比较最近 {0} 晚的中位数与再之前 {0} "
  "晚的中位数（缓慢漂移会先在这里显现，早于任何单独一晚）。变化点由 E-divisive 均值法（Matteson & "
  "James，2014：指数为 1 的能量距离，层次二分）和置换检验（199 次置换，显著性 0.05，每段至少 3 "
  "晚）找出，这是用于 CI 性能数据的方法。当变化点两侧各段的中位数相差至少达到该指标的阈值时才报告，"
  "并通过对其附近各晚拟合一条直线加一个跳变来判断它是台阶还是缓慢漂移的一部分（跳变的 |t| 超过 4 "
  "时为台阶）。回归台阶：最后一个报告的变化是朝坏方向的台阶，发生在最近 {0} "
  "晚之内，且最新一晚仍比之前各晚差至少一个阈值。最新一晚也在当晚按比较的判定规则判断：其数值的对数"
  "与之前 {0} 晚对数的均值比较，以各晚的离散为噪声（对一个新值的 t 检验，之前至少 3 晚）；变化越过"
  "阈值且 p ≤ 0.05 时为退步，一个配置的各受检计时指标之间用 Holm 方法（对这一晚的一个结论），各晚的"
  "噪声足以造成该变化时为未判定。阈值：{1}。只有受检指标决定退出码。")
X(D_THRESHOLD, "{0} {1}%{2}", "{0} {1}%{2}")
X(D_RATE_RULES,
  "Rows at a fixed rate (open loop) are judged as the gate judges them: their throughput is "
  "the rate they were asked for, so it and CPU efficiency are shown but not gated; server "
  "CPU per request is gated at {0}% and P99 latency at {1}% unless a threshold is set for "
  "them.",
  "固定速率（开环）的行按门禁的规则判断：其吞吐量就是要求的速率，因此吞吐量和 CPU "
  "效率只显示、不受检；除非另设阈值，每个请求的服务器 CPU 时间以 {0}% 受检，P99 "
  "延迟以 {1}% 受检。")
X(D_H_FLAGGED, "Flagged series", "标记的序列")
X(D_NONE_FLAGGED, "No series changed by its threshold.", "没有序列的变化达到其阈值。")
X(D_ALL_SERIES, "All series ({0})", "全部序列（{0}）")
X(D_H_NIGHTS, "Nights", "各晚")
X(D_COL_NEWEST, "Newest", "最新")
X(D_COL_PREV, "Median of previous nights", "之前各晚的中位数")
X(D_COL_TREND, "Trend", "趋势")
X(D_COL_CPS, "Change points", "变化点")
X(D_COL_STEP, "Regression step", "回归台阶")
X(D_COL_NUM, "#", "#")
X(D_COL_NIGHT, "Night", "夜间运行")
X(D_COL_STARTED, "Started", "开始时间")
X(D_COL_ENV, "Environment", "环境")
X(D_COL_IN, "In the series", "是否在序列中")
X(D_WORSE, " worse", "（变差）")
X(D_BETTER, " better", "（变好）")
X(D_NEWEST_REGRESSED, " regressed", "（退步）")
X(D_NEWEST_IMPROVED, " improved", "（改进）")
X(D_NEWEST_UNDECIDED, " undecided", "（未判定）")
X(D_OTHER_ENV_CELL, "no: other environment", "否：其他环境")
X(D_YES_UNGATED, "yes (not gated)", "是（不受检）")
X(D_YES_GATED, "**yes**", "**是**")
X(D_CHANGE_POINT, "night {0} ({1}): {2} → {3} ({4}, {5}, p = {6})",
  "第 {0} 晚（{1}）：{2} → {3}（{4}，{5}，p = {6}）")
X(D_STEP, "step", "台阶")
X(D_SLOW, "slow drift", "缓慢漂移")
X(D_PER_CORE, "{0} k/s per core", "{0} k/s 每核")
X(D_TREND, "trend", "趋势")
X(D_NIGHT_N, "night {0}", "第 {0} 晚")
X(D_NIGHT_NEWEST, "night {0} (newest)", "第 {0} 晚（最新）")
X(D_NIGHT_VALUE, "night {0}: {1}", "第 {0} 晚：{1}")
X(D_NIGHT_OTHER, "night {0}: other environment, not in the series",
  "第 {0} 晚：其他环境，不在序列中")
/* calibration.md / calibration.html (calibrate_report.c) */
X(C_TITLE, "calibration of {0}", "校准 {0}")
X(C_HEADING, "Calibration: {0} against itself", "校准：{0} 与自身对比")
X(C_METHOD,
  "An A/A run: the same build twice, in fresh processes, adjacent and in alternating order. "
  "**Noise** is the largest deviation of a paired per-round ratio from 1; **spread** is the "
  "larger (max − min) / median of the two sides; **detectable** is the smallest change for "
  "which every paired ratio would fall on one side of 1; the **floor** is max(threshold, {0} "
  "× detectable), what `compare gate --floors calibration.json` uses for that row. Any A/A "
  "`regressed` or `improved` is a false alarm.",
  "A/A 运行：同一构建运行两次，均为全新进程，相邻并交替顺序运行。**噪声**为每轮配对比值偏离 1 "
  "的最大值；**离散度**为两方中较大的 (最大值 − 最小值) / 中位数；**可检测**为使所有配对比值都落在 "
  "1 同一侧所需的最小变化；**下限**为 max(阈值, {0} × 可检测)，即 `compare gate --floors "
  "calibration.json` 对该行使用的值。A/A 中出现的任何 `regressed` 或 `improved` 都是误报。")
X(C_ALARMS,
  "**{0} false alarm{1}** in this A/A run: a verdict other than ~ between two identical "
  "builds. At the plain thresholds those rows would cry wolf; their floors in the table are "
  "raised to what their noise allows.",
  "本次 A/A 运行中有 **{0} 次误报**：两个相同构建之间出现了 ~ "
  "以外的判定。按普通阈值这些行会误报；表中它们的下限已按噪声提高。")
X(C_NO_ALARMS, "**0 false alarms** in this A/A run.", "本次 A/A 运行中**没有误报**（0 次）。")
X(C_ALARMS_LINE, "{0} false alarm{1} in this A/A run.", "本次 A/A 运行中有 {0} 次误报。")
X(C_PAIRS_SAME, "{0} configurations, {1} paired rounds each.",
  "共 {0} 个配置，每个配置 {1} 轮配对运行。")
X(C_PAIRS_RANGE, "{0} configurations, {1} to {2} paired rounds each.",
  "共 {0} 个配置，每个配置 {1} 至 {2} 轮配对运行。")
X(C_CONFIGS, "{0} configurations.", "共 {0} 个配置。")
X(C_H_CHART, "Detectable change", "可检测的变化")
X(C_CHART_NOTE,
  "Per configuration, the smallest throughput and batch P99 change these runs can detect; "
  "lower is better. Configurations are grouped by protocol · transport · payload, each group "
  "with its own scale. Hover a bar for its figure.",
  "每个配置中这些运行能检测到的最小吞吐量变化与批次 P99 变化；越低越好。配置按 协议 · 传输 · "
  "负载 分组，每组使用各自的刻度。鼠标悬停可查看数值。")
X(C_CHART_TITLE, "Smallest detectable change per configuration", "各配置可检测到的最小变化")
X(C_CHART_AXIS, "smallest detectable change, % (lower is better)",
  "可检测到的最小变化，%（越低越好）")
X(C_BATCH_P99, "batch P99", "批次 P99")
X(C_DETECTABLE_OF, "{0}: detectable change", "{0}：可检测的变化")
X(C_NO_PAIRS, "no paired runs", "无配对运行")
X(C_ROW_FAILED, "no paired runs (the row failed)", "无配对运行（该行失败）")
X(C_H_TABLE, "Noise and floors", "噪声与下限")
X(C_COL_NOISE, "Noise", "噪声")
X(C_COL_SPREAD, "Spread", "离散度")
X(C_COL_DETECTABLE, "Detectable", "可检测")
X(C_COL_FLOOR, "Floor", "下限")
X(C_COL_PAIRS, "Pairs", "配对数")
X(C_COL_VERDICT, "A/A verdict", "A/A 判定")
X(C_FALSE_ALARM, "false alarm", "误报")
X(C_FOOTER, "Written by pairbench compare calibrate.", "由 pairbench compare calibrate 生成。")
X(M_H_WORKLOADS, "Workloads", "工作负载")
X(M_WL_INTRO,
  "The commands each configuration sent, in full (labels shorten them), the data each server "
  "got before its warm-up, and a mix's figures per command (median over the runs).",
  "各配置发送的完整命令（标签中为缩写）、每个服务器在预热前获得的数据，以及混合负载中每条命令的数据"
  "（各次运行的中位数）。")
X(M_WL_SETUP, "Setup:", "预置数据：")
X(M_WL_SETUP_SHA, "setup SHA-256", "预置数据 SHA-256")
X(M_WL_SETUP_KEYS, "keys after it", "之后的键数")
X(M_WL_SAME, "Every run of every version got the same data.",
  "所有版本的每次运行都获得了相同的数据。")
X(M_WL_DIFF,
  "Not every run got the same data (the digests differ): the comparison is not like for like.",
  "并非每次运行都获得了相同的数据（摘要不同）：比较并不对等。")
X(M_WL_COL_CMD, "Command", "命令")
X(M_WL_COL_WEIGHT, "Weight", "权重")
X(B_TITLE, "Which commit: {0} of {1}", "哪个提交：{1} 的 {0}")
X(B_FOUND,
  "**First bad commit: `{0}`** {1} ({2}): {3} {4} against its parent `{5}` ({6} → {7} {8}).",
  "**第一个变坏的提交：`{0}`** {1}（{2}）：相对其父提交 `{5}`，{3} 变化 {4}（{6} → {7} {8}）。")
X(B_NOT_FOUND, "**Not decided:** {0}", "**无法判定：**{0}")
X(B_RANGE,
  "Range `{0}`..`{1}` of `{2}`: {3} commits, {4} measured steps; a commit is bad when {5} "
  "moves more than {6}% in the bad direction against good (`{0}`).",
  "范围 `{0}`..`{1}`（仓库 `{2}`）：{3} 个提交，测量了 {4} 步；当 {5} 相对 good（`{0}`）"
  "向变坏的方向变化超过 {6}% 时，该提交判为坏。")
X(B_H_WHERE, "Where it went", "变化去了哪里")
X(B_WHERE_INTRO,
  "The functions whose instructions per operation changed most at the culprit's step "
  "(against good):",
  "在该提交的那一步中（相对 good），每次操作指令数变化最大的函数：")
X(B_COL_FUNCTION, "Function", "函数")
X(B_COL_GOOD, "Good", "good")
X(B_COL_THIS, "Commit", "提交")
X(B_COL_DELTA, "Delta", "差值")
X(B_H_SKIPPED, "Skipped commits", "跳过的提交")
X(B_SKIPPED_LINE, "`{0}` {1}: did not build (log `{2}`)", "`{0}` {1}：构建失败（日志 `{2}`）")
X(B_H_STEPS, "Steps", "步骤")
X(B_COL_STEP, "Step", "步")
X(B_COL_SUBJECT, "Subject", "说明")
X(B_COL_BUILD, "Build", "构建")
X(B_COL_VALUE, "Value", "数值")
X(B_COL_CHANGE, "Against good", "相对 good")
X(B_COL_VERDICT, "Verdict", "判定")
X(B_BUILT, "built", "已构建")
X(B_SKIPPED, "skipped", "已跳过")
X(B_V_GOOD, "good", "好")
X(B_V_BAD, "bad", "坏")
X(B_V_INCONCLUSIVE, "inconclusive", "无定论")
X(B_REPRODUCE, "The culprit against its parent:", "该提交与其父提交对比：")
X(B_FOOTER, "Written by pairbench compare bisect.", "由 pairbench compare bisect 生成。")
X(D_H_BISECT, "Which commit", "哪个提交")
X(D_BISECT_HINT,
  "{0}, {1}: a step between night {2} (commit `{3}`) and night {4} (commit `{5}`). To find the "
  "commit that made it:",
  "{0}，{1}：在第 {2} 晚（提交 `{3}`）与第 {4} 晚（提交 "
  "`{5}`）之间有一个阶跃。要找出造成它的提交：")
/* the full cost of a request (report_md_full.c, report_html_full.c) */
X(F_HEADING, "The full cost of a request", "一次请求的完整成本")
X(F_INTRO,
  "What the server's whole process tree (every thread and child) paid per successful "
  "operation beyond its user-space instructions: a figure per metric and configuration, the "
  "median [min–max] over the runs, and against the baseline the change and the verdict.",
  "服务器整个进程树（所有线程和子进程）在用户态指令之外为每次成功操作付出的代价：每个指标、"
  "每个配置一行，取各次运行的中位数 [最小值–最大值]，并给出相对基线的变化和判定。")
X(F_LIM_CTXSW,
  "Counts every switch away from a server thread (it slept, or was preempted) with the "
  "kernel's software event PERF_COUNT_SW_CONTEXT_SWITCHES (perf_event_open, one inherited "
  "counter per thread, read at the driver's window marks) during the timed runs, at full "
  "speed (a counter update per switch). It cannot see why a thread slept or who woke it; "
  "other load on the machine adds preemptions. Changes below 0.1 per operation are ~.",
  "在计时运行中以全速用内核软件事件 PERF_COUNT_SW_CONTEXT_SWITCHES 计数服务器线程的每次切出"
  "（睡眠或被抢占）（perf_event_open，每个线程一个可继承的计数器，在驱动程序的窗口标记处读取；"
  "每次切换只更新一次计数器）。它看不到线程为何睡眠、由谁唤醒；机器上的其他负载会增加抢占。"
  "每次操作少于 0.1 的变化记为 ~。")
X(F_LIM_FAULTS,
  "Counts the page faults (minor and major) of the server's threads with "
  "PERF_COUNT_SW_PAGE_FAULTS over the timed runs' window, at full speed. A steady server "
  "faults rarely; a rise means new memory touched per request. It cannot see the cost of a "
  "fault. Changes below 0.05 per operation are ~.",
  "在计时运行的窗口内以全速用 PERF_COUNT_SW_PAGE_FAULTS 计数服务器线程的缺页（次要和主要）。"
  "稳定运行的服务器很少缺页；上升意味着每个请求触及了新内存。它看不到缺页的代价。"
  "每次操作少于 0.05 的变化记为 ~。")
X(F_LIM_MIGR,
  "Counts the moves of a server thread to another CPU (PERF_COUNT_SW_CPU_MIGRATIONS) over "
  "the timed runs' window. The scheduler decides these; on a loaded machine they follow the "
  "load more than the server. Changes below 0.05 per operation are ~.",
  "在计时运行的窗口内计数服务器线程迁移到另一个 CPU 的次数（PERF_COUNT_SW_CPU_MIGRATIONS）。"
  "这由调度器决定；在负载较高的机器上它更多反映负载而非服务器。每次操作少于 0.05 的变化记为 ~。")
X(F_LIM_SYSCALLS,
  "Every system call entry of the server's tree between the driver's window marks, counted "
  "exactly with ptrace (every thread and child seized, later ones followed) in runs of their "
  "own, where each call stops the server twice (the traced server ran about {0}× slower; "
  "no timing of those runs is used). It cannot see work the kernel does without a system "
  "call (interrupts, network processing, faults) or how long a call took.",
  "在独立运行中用 ptrace 精确计数驱动程序窗口标记之间服务器进程树的每次系统调用入口（所有线程和"
  "子进程都被附加，之后创建的也会跟随）；每次调用使服务器停两次（被跟踪的服务器慢约 {0} 倍，"
  "这些运行的计时不被使用）。它看不到内核不经系统调用所做的工作（中断、网络处理、缺页），"
  "也看不到调用耗时。")
X(F_LIM_ALLOCS,
  "Calls of malloc, calloc, realloc, free (and jemalloc's je_* entry points) from outside the "
  "allocator per operation, from callgrind's call counts in the instruction-counted runs (a "
  "malloc/free pair is 2; the idle rate subtracted). It cannot see allocators it does not "
  "know by name (a server's own pools, or zmalloc when inlined), nor the bytes allocated.",
  "每次操作中从分配器外部对 malloc、calloc、realloc、free（以及 jemalloc 的 je_* 入口）的调用"
  "次数，来自指令计数运行中 callgrind 的调用计数（一对 malloc/free 计 2；减去空闲速率）。"
  "它看不到名字未知的分配器（服务器自己的内存池，或被内联的 zmalloc），也看不到分配的字节数。")
X(F_WHERE, "Where it changed", "变化在哪里")
X(F_NONE, "{0}: 0.000 in every run of every configuration and version, so no table.",
  "{0}：每个配置、每个版本的每次运行都是 0.000，因此不列表格。")
X(F_SAME,
  "{0}: {1}–{2} in every run of every version, and `~` in every configuration, so no table.",
  "{0}：每个版本的每次运行都在 {1}–{2} 之间，每个配置都是 `~`，因此不列表格。")
X(F_COL_CONFIG, "Configuration", "配置")
X(F_VS, "vs baseline", "对比基线")
X(M_H_LOAD, "Latency against load", "延迟与负载")
X(M_KNEE_AT, "P99 passes 1 ms at {0} of saturation for {1}",
  "{1} 的 P99 在饱和速率的 {0} 处超过 1 ms")
X(M_KNEE_NEVER, "P99 stays under 1 ms up to the highest rate for {1}",
  "{1} 的 P99 直到最高速率都低于 1 ms")
X(M_SATURATION,
  "Saturation rate {0} ops/s (closed loop: {1}; the percentages are of the slower version's, "
  "key `{2}`)",
  "饱和速率 {0} ops/s（闭环：{1}；百分比以较慢版本的速率为准，键 `{2}`）")
X(F_H_FLAME, "Where the instructions went, as a picture", "指令花在哪里（图）")
X(F_FLAME_CAPTION,
  "A differential flame graph per row and candidate: each call path's inclusive instructions "
  "per operation from the counted runs' folded stacks (`flame/<configuration>.<version>.folded`), "
  "{0} against {1}. A frame is as wide as the larger of its two figures (or as its callees "
  "together, where they are wider); red where the candidate runs more instructions on that "
  "path, blue where it runs fewer, grey where the two differ by less than 1% or one "
  "instruction; the deeper the colour, the larger the change (full at ±25%). Hover over a frame "
  "for both figures and the change.",
  "每行、每个候选版本一张差分火焰图：每条调用路径每次操作的包含性指令数，取自计数运行的折叠栈"
  "（`flame/<配置>.<版本>.folded`），{0} 对比 {1}。帧的宽度取两个数字中较大的一个（若其被调函数"
  "合计更宽则取后者）；候选版本在该路径上指令更多为红色，更少为蓝色，相差不到 1% 或一条指令为灰色；"
  "颜色越深，变化越大（±25% 时最深）。把鼠标停在帧上可看到两个数字和变化。")
X(F_FLAME_LIMITS,
  "Limits: callgrind keeps one cost per caller-callee pair, not per path, so a path's cost is "
  "split among a function's callees in the proportions that function shows over all its "
  "callers (exact for a function with one caller, an estimate for one called from several "
  "places); paths under 0.05 instructions per operation are counted in their caller, frames "
  "narrower than half a pixel are not drawn, and the picture is of the last counted round. The "
  "folded files are not covered by the dataset's checksum.",
  "局限：callgrind 记录的是每对调用者与被调者的开销，而不是每条路径的开销，所以一条路径的开销按该"
  "函数在所有调用者下的比例分给它的被调函数（只有一个调用者的函数是精确的，被多处调用的函数是估计）"
  "；"
  "每次操作不到 0.05 条指令的路径计入其调用者，窄于半个像素的帧不画，图取自最后一轮计数。"
  "折叠栈文件不在数据集的校验和之内。")
X(F_FLAME_TIP, "{0}: {1} → {2} instructions per operation ({3})",
  "{0}：每次操作 {1} → {2} 条指令（{3}）")
X(F_FLAME_MOST, "Changed most in its own instructions: {0} ({1} per operation)",
  "自身指令变化最大：{0}（每次操作 {1}）")
X(F_FLAME_NEW, "new", "新增")
X(F_FLAME_GONE, "gone", "消失")
X(F_LIM_CYCLES,
  "Estimated cycles per operation = L1 hits + 5 × LL hits + 35 × RAM accesses (the weights "
  "iai-callgrind uses), from callgrind's cache simulation (--cache-sim) in the "
  "instruction-counted runs: a simulated first-level (instruction and data) and last-level "
  "cache of this machine's sizes, fed every instruction fetch, data read and data write of the "
  "server per operation (its L1 and LL misses are in the breakdown; the idle rate "
  "subtracted). The simulating server ran about {0}× slower. It is a model, not a "
  "measurement: it cannot see out-of-order overlap, prefetching, branch mispredictions, the "
  "TLB, other cores sharing the cache or this CPU's real latencies; it makes a change that "
  "only moves memory traffic visible where the instructions stay the same.",
  "每次操作的估算周期 = L1 命中 + 5 × LL 命中 + 35 × 内存访问（iai-callgrind 使用的权重），来自"
  "指令计数运行中 callgrind 的缓存模拟（--cache-sim）：按本机大小模拟一级（指令和数据）缓存和末级"
  "缓存，输入服务器每次操作的每次取指、数据读和数据写（L1 与 LL 未命中见细分；减去空闲速率）。"
  "模拟中的服务器慢约 {0} 倍。这是模型而不是测量：它看不到乱序重叠、预取、分支预测失败、TLB、"
  "共享缓存的其他核心或本 CPU 的真实延迟；它让只改变内存流量而指令数不变的变化变得可见。")
/* report/gate_report.c: gate.md */
X(G_HEAD, "## pairbench gate: {0}", "## pairbench 门禁：{0}")
X(G_OUT_PASS, "pass", "通过")
X(G_OUT_REGRESSION, "regression", "退步")
X(G_OUT_HARNESS, "harness failure", "测试装置故障")
X(G_OUT_INCONCLUSIVE, "undecided", "未判定")
X(G_PASS_ONE,
  "**Pass.** No gated metric of the {0} gated configuration changed beyond its threshold with "
  "strong evidence.",
  "**通过。** {0} 个受门禁的配置中，没有任何受门禁的指标以充分的证据超过其阈值。")
X(G_PASS_MANY,
  "**Pass.** No gated metric of the {0} gated configurations changed beyond its threshold with "
  "strong evidence.",
  "**通过。** {0} 个受门禁的配置中，没有任何受门禁的指标以充分的证据超过其阈值。")
X(G_REGRESSION,
  "**Regression.** The candidate is measurably worse:", "**退步。** 候选版本可测量地变差了：")
X(G_HARNESS, "**Harness failure.** Some runs could not measure; the verdict is open:",
  "**测试装置故障。** 部分运行无法测量；结论未定：")
X(G_INCONCLUSIVE, "**Undecided.** The runs could not decide every gated metric:",
  "**未判定。** 这些运行无法判定每个受门禁的指标：")
X(G_CAND_FAULT,
  "- **{0}**: the candidate's runs failed where the baseline's ran the same load cleanly: {1}. "
  "That is the candidate's behaviour under this load, not the harness: look at the candidate "
  "rather than rerunning.",
  "- **{0}**：基线在同样的负载下运行正常，候选版本的运行却失败了：{1}。这是候选版本在此负载下的"
  "行为，不是测试装置的问题：请检查候选版本，而不是重新运行。")
X(G_ROW_FAILED, "- **{0}**: runs failed; the report lists why. Fix the harness and rerun.",
  "- **{0}**：运行失败；报告列出了原因。请修复测试装置后重新运行。")
X(G_S_FELL,
  "- **{0}**: {1} fell {2}% (threshold {3}%), with p = {4} on {5} runs a side against the noise "
  "of the whole run. Look at the candidate's change; this is not noise.",
  "- **{0}**：{1} 下降了 {2}%（阈值 {3}%），每边 {5} 次运行，对照整次运行的噪声，p = {4}。"
  "请检查候选版本的改动；这不是噪声。")
X(G_S_ROSE,
  "- **{0}**: {1} rose {2}% (threshold {3}%), with p = {4} on {5} runs a side against the noise "
  "of the whole run. Look at the candidate's change; this is not noise.",
  "- **{0}**：{1} 上升了 {2}%（阈值 {3}%），每边 {5} 次运行，对照整次运行的噪声，p = {4}。"
  "请检查候选版本的改动；这不是噪声。")
X(G_S_COUNTED,
  "- **{0}**: {1} changed {2}% (threshold {3}%) on {4} runs a side, and the cheapest runs of "
  "the two sides differ as much: a count repeats closely from run to run, so this is the "
  "candidate's change, not noise.",
  "- **{0}**：{1} 变化了 {2}%（阈值 {3}%），每边 {4} 次运行，两边最少的一次运行也相差这么多："
  "计数在各次运行之间几乎不变，所以这是候选版本的改动，而不是噪声。")
X(G_S_DISTURBED,
  "- **{0}**: {1} changed {2}%: undecided, the runs it rests on were disturbed: other processes "
  "used the CPUs during them (the report lists how much), enough to make a change of that size. "
  "Rerun on an idle runner, or with --budget {3}.",
  "- **{0}**：{1} 变化了 {2}%：未判定，它所依据的运行受到了干扰：运行期间有其他进程占用 CPU（报告"
  "列出了占用多少），足以造成这么大的变化。请在空闲的机器上重新运行，或使用 --budget {3}。")
X(G_S_UNSTABLE,
  "- **{0}**: {1} changed {2}%: undecided, the noise measured here (the 90% interval runs from "
  "{3}% to {4}%) could make a change of that size, and no count of runs up to 50 a side would "
  "resolve {5}% on this runner. Raise the threshold, or rerun on a quieter runner.",
  "- **{0}**：{1} 变化了 {2}%：未判定，这里测得的噪声（90% 区间为 {3}% 到 {4}%）足以造成这么大的"
  "变化，每边最多 50 次运行也无法在这台机器上分辨 {5}%。请提高阈值，或换一台更安静的机器。")
X(G_S_BOUNDED,
  "- **{0}**: {1} changed {2}%: undecided as a change (the 90% interval runs from {3}% to {4}%), "
  "but its bad end is inside the {5}% threshold: no regression past it, which is what the gate "
  "asks, so it passes.",
  "- **{0}**：{1} 变化了 {2}%：作为变化未判定（90% 区间为 {3}% 到 {4}%），但其不利一端在 {5}% "
  "阈值以内：没有超过阈值的退步，这正是门禁要求的，因此放行。")
X(G_S_TOO_FEW_ONE,
  "- **{0}**: {1} changed {2}% on {3} run a side: undecided, too few runs to measure the noise. "
  "Rerun with --runs 3 or more.",
  "- **{0}**：{1} 在每边 {3} 次运行上变化了 {2}%：未判定，运行次数太少，无法测出噪声。请使用 "
  "--runs 3 或更多重新运行。")
X(G_S_TOO_FEW,
  "- **{0}**: {1} changed {2}% on {3} runs a side: undecided, too few runs (the 90% interval runs "
  "from {4}% to {5}%). About {6} runs a side would decide it: rerun with --runs {6}, or --budget "
  "{7}.",
  "- **{0}**：{1} 在每边 {3} 次运行上变化了 {2}%：未判定，运行次数太少（90% 区间为 {4}% 到 {5}%）。"
  "每边约 {6} 次运行即可判定：请使用 --runs {6} 或 --budget {7} 重新运行。")
X(G_S_FAILED, "- **{0}**: {1} has no values: runs failed (see the report's failures).",
  "- **{0}**：{1} 没有数值：运行失败（见报告中的失败列表）。")
X(G_COUNTS,
  "Candidate against baseline `{0}` over {1} configurations: {2} regressed, {3} improved, {4} "
  "undecided, {5} with failed runs, {6} incomplete.",
  "候选版本对比基线 `{0}`，共 {1} 个配置：{2} 个退步，{3} 个改进，{4} 个未判定，{5} "
  "个有失败的运行，"
  "{6} 个不完整。")
X(G_REASON, " Reason: {0}.", " 原因：{0}。")
X(G_GATED, "Gated metrics and thresholds: ", "受门禁的指标与阈值：")
X(G_NONE_GLOBALLY, "none globally", "全局无")
X(G_PER_ROW_ONE, " ({0} per-row rule in the spec)", "（规格中有 {0} 条按行规则）")
X(G_PER_ROW_MANY, " ({0} per-row rules in the spec)", "（规格中有 {0} 条按行规则）")
X(G_FROM_META,
  "**The thresholds and noise settings are spec.gate of `{0}`, which nothing checks: {1}**",
  "**阈值和噪声设置取自 `{0}` 的 spec.gate，未经任何校验：{1}**")
X(G_RATE_RULES,
  " On rows at a fixed rate throughput is the rate asked for: it and CPU efficiency are not "
  "gated there, server CPU per request is gated at {0}% and P99 latency at {1}% (0: not gated).",
  "固定速率的行的吞吐量就是要求的速率：这些行不检查吞吐量和 CPU 效率，每个请求的服务器 CPU "
  "时间以 {0}% 受检，P99 延迟以 {1}% 受检（0 表示不受检）。")
X(G_RULE,
  ". A metric counts as regressed only when the change passes its threshold and the evidence "
  "decides (a t-test of the log change, its variance shrunk toward the noise of every row of "
  "the run, p ≤ 0.05, Holm across the row's gated timed metrics); `~` only when the 90% "
  "interval lies inside the threshold; else undecided, with its reason (a side spreading over "
  "{0}% is reported, not a veto). The last column is the chance that a row of identical "
  "versions is flagged on any gated timed metric (the family's bound).",
  "。只有当变化超过阈值且证据足以判定（对数变化的 t 检验，其方差向本次运行所有行的噪声收缩，"
  "p ≤ 0.05，并在该行受门禁的计时指标间做 Holm 校正）时，指标才算退步；只有 90% 区间落在阈值之内"
  "时才为 `~`；否则为未判定，并给出原因（一边的离散超过 {0}% 只作报告，不否决结论）。最后一列是"
  "相同版本的一行在任一受门禁的计时指标上被标记的概率（该族的上限）。")
X(G_TABLE_HEAD,
  "| Configuration | Version | Gated metrics (change, verdict) | Gate | False-flag chance |",
  "| 配置 | 版本 | 受门禁的指标（变化，判定） | 门禁 | 误标概率 |")
X(G_NOT_GATED, "not gated", "不受门禁")
X(G_RUN_DIR, "Run directory: `{0}`", "运行目录：`{0}`")
X(G_FULL_REPORT, "Full report", "完整报告")
X(G_REPORT_CUT, "(report cut to fit a comment; see the run directory)",
  "（报告已截断以适应评论长度；完整内容见运行目录）")
X(H_LOAD_CAPTION,
  "Per version, the median P50 (dashed) and P99 (solid) latency at each rate of the sweep, as "
  "a percentage of the saturation rate; the latency axis is logarithmic and the dotted line "
  "is 1 ms, the knee the sentence names.",
  "每个版本在扫描的每个速率（以饱和速率的百分比表示）下的 P50（虚线）与 P99（实线）延迟中位数；"
  "延迟轴为对数刻度，点线为 1 ms，即句中所说的拐点。")
X(H_LOAD_X_AXIS, "rate, % of saturation", "速率，饱和速率的 %")
X(H_LOAD_Y_AXIS, "latency, µs (log)", "延迟，µs（对数）")
X(W_HEADING, "Interference and server accounting", "干扰与服务器计量")
X(W_ACCT_MARKS,
  "Server accounting: the driver marked its measured window, so server CPU, read/write system "
  "calls and context switches per operation cover that window only (the server's whole process "
  "tree: every thread and child).",
  "服务器计量：驱动程序标记了它的测量窗口，因此每个操作的服务器 CPU、读写系统调用和上下文切换只覆盖"
  "该窗口（服务器的整个进程树：每个线程和子进程）。")
X(W_ACCT_PROCESS,
  "Server accounting: whole process. The driver wrote no window marks, so server CPU, system "
  "calls and context switches per operation cover the driver's whole life, warm-up included, "
  "and overstate the per-operation cost.",
  "服务器计量：整个进程。驱动程序没有写窗口标记，因此每个操作的服务器 CPU、系统调用和上下文切换覆盖"
  "驱动程序的整个生命期（包括预热），会高估每个操作的开销。")
X(W_ACCT_MIXED,
  "Server accounting: mixed. Some runs' drivers marked the measured window, others did not "
  "(their figures include the warm-up).",
  "服务器计量：混合。部分运行的驱动程序标记了测量窗口，其余的没有（它们的数字包括预热）。")
X(W_ACCT_ROW, "{0}: server CPU {1}; read/write system calls {2}; context switches {3} ({4} → {5}).",
  "{0}：服务器 CPU {1}；读写系统调用 {2}；上下文切换 {3}（{4} → {5}）。")
X(W_PER_OP, "{0} → {1} {2} ({3}, {4})", "{0} → {1} {2}（{3}，{4}）")
X(W_UNIT_US_OP, "µs/op", "微秒/操作")
X(W_UNIT_PER_OP, "per op", "每操作")
X(F_UNIT_SYSCALLS, "system calls/op", "系统调用/操作")
X(F_UNIT_ALLOCS, "allocator calls/op", "分配器调用/操作")
X(W_UNKNOWN, "unknown", "未知")
X(W_SYSCALLS_NOTE,
  "System calls are the kernel's read/write counts (/proc/PID/io syscr + syscw): send/recv on "
  "sockets are not among them.",
  "系统调用是内核的读写计数（/proc/PID/io 的 syscr + syscw）：套接字上的 send/recv 不在其中。")
X(W_CLEAN,
  "No run was disturbed: in every measured window other processes used at most {0} CPU cores "
  "and steal stayed at most {1}%, and no throughput was an order of magnitude from its row's "
  "median.",
  "没有运行受到干扰：在每个测量窗口中，其他进程最多使用 {0} 个 CPU 核，steal 最多 {1}%，"
  "也没有吞吐量与其行的中位数相差一个数量级。")
X(W_DISTURBED,
  "Disturbed runs: other processes used more than {0} CPU cores, or steal took more than {1}%, "
  "during the run's measured window. Its round was run again (at most 2 per row); a row's "
  "verdict rests on its clean rounds when at least 3 remain.",
  "受干扰的运行：在运行的测量窗口中，其他进程使用了超过 {0} 个 CPU 核，或 steal 超过 {1}%。"
  "该轮会重新运行（每行最多 2 次）；当至少剩下 3 个干净的轮次时，行的判定只依据干净的轮次。")
X(W_AGAIN, "{0} · {1} · round {2}: other processes {3} cores, steal {4}% — round run again",
  "{0} · {1} · 第 {2} 轮：其他进程 {3} 核，steal {4}% — 该轮重新运行")
X(W_DISTURBED_RUN,
  "{0} · {1} · round {2}: other processes {3} cores, steal {4}%, {5} involuntary context "
  "switches of the driver — {6}",
  "{0} · {1} · 第 {2} 轮：其他进程 {3} 核，steal {4}%，驱动程序 {5} 次非自愿上下文切换 — {6}")
X(W_DISTURBED_RUNS,
  "{0} · {1} · rounds {2}: other processes {3}–{4} cores, steal up to {5}%, {6}–{7} involuntary "
  "context switches of the driver — {8}",
  "{0} · {1} · 第 {2} 轮：其他进程 {3}–{4} 核，steal 最多 {5}%，驱动程序 {6}–{7} 次非自愿上下文"
  "切换 — {8}")
X(W_LEFT_OUT, "left out of the verdict", "不计入判定")
X(W_KEPT_FEW, "kept (fewer than 3 clean rounds in the row)", "保留（该行干净的轮次少于 3 个）")
X(W_OUTLIER,
  "{0} · {1} · round {2}: throughput {3} against a median of {4}, more than {5}× away — {6}",
  "{0} · {1} · 第 {2} 轮：吞吐量 {3}，中位数 {4}，相差超过 {5} 倍 — {6}")
X(W_OUTLIER_OUT, "not a measurement of the same thing; left out of the verdict",
  "不是对同一事物的测量；不计入判定")
X(W_OUTLIER_KEPT,
  "kept: more than one run in three of this version is as far, so its runs fall in two groups "
  "and the verdict weighs both",
  "保留：该版本超过三分之一的运行相差同样远，因此它的运行分为两组，判定同时考虑两者")
