// SPDX-License-Identifier: MIT
/*
 * ttpu-run.c - run a ttpu program: the format's executor protocol as a CLI
 *
 *   ttpu-run < REQUEST.json                  request on stdin, response on stdout
 *   ttpu-run PROGRAM.json [--inputs IN.json] [-o OUT.json]
 *
 * See usage() and Documentation/ttpu-run.rst.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli.h"

/* Long options without a letter. */
enum { CLI_OPT_COMPILE = 256, CLI_OPT_SERVE, CLI_OPT_PASSES };

struct cli {
	const char *program;		/* NULL: a request on stdin */
	const char *inputs;
	const char *output;		/* NULL or "-": stdout */
	const char *device;
	enum ttpu_engine_choice engine;
	bool engine_given;		/* --engine was on the command line */
	bool check;
	bool compile;			/* --compile: write PROGRAM as .ttpb */
	bool serve;			/* --serve: inputs lines on stdin */
	bool stats;
	enum ttpu_passes_form passes;	/* --passes: the response's passes */
	bool passes_given;
	bool show;
	bool info;			/* --info: list devices, run nothing */
	bool json;			/* --info as JSON */
	unsigned long repeat;		/* runs; 1 unless --repeat */
	struct cli_sink sink;
	struct cli_times times;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: " CLI_NAME " [OPTIONS] < REQUEST.json\n"
		"       " CLI_NAME " [OPTIONS] PROGRAM.json [--inputs INPUTS.json]\n"
		"\n"
		"Run a ttpu program. With no PROGRAM, read one request\n"
		"{\"program\": ..., \"inputs\": ...} on stdin. The response (or\n"
		"{\"error\": ...}) is written on stdout; a failure also prints one\n"
		"\"" CLI_NAME ": KIND: message\" line on stderr.\n"
		"\n"
		"Options:\n"
		"  -i, --inputs FILE   the inputs {NAME: values, ...} (file mode only;\n"
		"                      not needed when the program has no inputs)\n"
		"  -o, --output FILE   write the response to FILE, atomically: FILE is\n"
		"                      replaced only by a complete response, never on failure;\n"
		"                      a symlink is followed (its target replaced, the link\n"
		"                      kept), a FIFO or character device is written in place,\n"
		"                      any other kind of node is refused\n"
		"  -m, --max-input SIZE  refuse documents (--serve: lines) larger than SIZE\n"
		"                      bytes (K, M or G suffix; default 1G, or $TTPU_TEXT_MAX)\n"
		"  -e, --engine ENGINE ");
	/* The library's engine table, so a new engine needs no edit here. */
	for (int c = 1; ttpu_engine_choice_name((enum ttpu_engine_choice)c); c++)
		fprintf(f, "%s, ", ttpu_engine_choice_name((enum ttpu_engine_choice)c));
	fprintf(f, "or %s (the default: the\n", ttpu_engine_choice_name(TTPU_ENGINE_AUTO));
	fprintf(f,
		"                      first of them present on this machine)\n"
		"  -d, --device PATH   the NpuKit device node (default /dev/npukit0);\n"
		"                      implies --engine npukit unless --engine is given\n"
		"  -c, --check         load and validate only; print\n"
		"                      {\"ok\": true, \"name\", \"passes\", \"commands\"}\n"
		"      --compile       write PROGRAM compiled (.ttpb, see ttpu-run(1)) to\n"
		"                      --output FILE instead of running it; a compiled\n"
		"                      PROGRAM is taken wherever a JSON one is\n"
		"      --serve         load PROGRAM and open the engine once, then answer\n"
		"                      each line of stdin (an inputs document) with one\n"
		"                      response line, or an {\"error\": ...} line naming\n"
		"                      its line, until EOF; a read error ends it (exit 3)\n"
		"      --passes FORM   the response's \"passes\": full (the default, the\n"
		"                      protocol's list of every pass), summary ({\"count\",\n"
		"                      \"firstId\", \"lastId\"}) or none (left out)\n"
		"  -s, --stats         a summary on stderr (engine, passes, cycles, device\n"
		"                      counters, time per phase); adds \"stats\" to the response\n"
		"  -S, --show          print each output as a matrix on stderr (for people;\n"
		"                      large outputs are cut to their corners)\n"
		"  -r, --repeat N      run N times (engine opened once); the response is\n"
		"                      the last run's, and stderr gets ms per run\n"
		"                      (min/median/max)\n"
		"      --info          list the NpuKit devices (or --device's): ID, VERSION,\n"
		"                      FEATURES, limits, state and counters; runs nothing\n"
		"      --json          with --info: {\"devices\": [...]} on stdout\n"
		"  -h, --help          this text\n"
		"  -V, --version       the version\n"
		"\n"
		"Exit status:\n"
		"  0  success\n"
		"  1  the program, its inputs or its run failed: SchemaError, InputError,\n"
		"     RangeError, EstimateMismatch\n"
		"  2  bad command line: UsageError\n"
		"  3  the device or the system failed: DeviceError, SystemError (a missing\n"
		"     file, an I/O error, a full disk, a closed pipe)\n");
}

static const struct option long_options[] = {
	{ "inputs", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "max-input", required_argument, NULL, 'm' },
	{ "engine", required_argument, NULL, 'e' },
	{ "device", required_argument, NULL, 'd' },
	{ "check", no_argument, NULL, 'c' },
	{ "stats", no_argument, NULL, 's' },
	{ "show", no_argument, NULL, 'S' },
	{ "repeat", required_argument, NULL, 'r' },
	{ "info", no_argument, NULL, 'I' },
	{ "json", no_argument, NULL, 'J' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "compile", no_argument, NULL, CLI_OPT_COMPILE },
	{ "serve", no_argument, NULL, CLI_OPT_SERVE },
	{ "passes", required_argument, NULL, CLI_OPT_PASSES },
	{ NULL, 0, NULL, 0 }
};

/*
 * getopt_long() said '?' about @arg: an unknown option, or a known long
 * option given "=value" although it takes none (then optopt is its letter).
 */
static int usage_bad_option(const char *arg, struct ttpu_error *err)
{
	const char *eq = strchr(arg, '=');

	if (strncmp(arg, "--", 2) != 0)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "unknown option '-%c' (see " CLI_NAME " --help)",
				      optopt ? optopt : '?');
	if (optopt && eq)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "option '%.*s' takes no argument (see " CLI_NAME " --help)",
				      (int)(eq - arg), arg);
	return ttpu_error_set(err, TTPU_USAGE_ERROR,
			      "unknown option '%s' (see " CLI_NAME " --help)", arg);
}

/*
 * Returns 0 to go on, 1 when --help or --version was handled, or a
 * negative error kind.
 */
static int parse_args(struct cli *c, int argc, char **argv,
		      struct ttpu_error *err)
{
	bool help = false, version = false;
	int opt, ret;

	opterr = 0;	/* every complaint is one UsageError line */
	while ((opt = getopt_long(argc, argv, ":i:o:m:e:d:csSr:hV", long_options,
				  NULL)) != -1) {
		switch (opt) {
		case 'i':
			c->inputs = optarg;
			break;
		case 'o':
			c->output = optarg;
			break;
		case 'm':
			ret = ttpu_text_limit_set(optarg, err);
			if (ret)
				return ret;
			break;
		case 'e':
			ret = ttpu_engine_choice_parse(optarg, &c->engine, err);
			if (ret)
				return ret;
			c->engine_given = true;
			break;
		case 'd':
			c->device = optarg;
			break;
		case 'c':
			c->check = true;
			break;
		case 's':
			c->stats = true;
			break;
		case 'S':
			c->show = true;
			break;
		case 'r':
			ret = cli_parse_repeat(optarg, &c->repeat, err);
			if (ret)
				return ret;
			break;
		case 'I':
			c->info = true;
			break;
		case 'J':
			c->json = true;
			break;
		case 'h':
			help = true;
			break;
		case 'V':
			version = true;
			break;
		case CLI_OPT_COMPILE:
			c->compile = true;
			break;
		case CLI_OPT_SERVE:
			c->serve = true;
			break;
		case CLI_OPT_PASSES:
			ret = ttpu_passes_form_parse(optarg, &c->passes, err);
			if (ret)
				return ret;
			c->passes_given = true;
			break;
		case ':':
			return ttpu_error_set(err, TTPU_USAGE_ERROR,
					      "option '%s' needs an argument (see " CLI_NAME " --help)",
					      argv[optind - 1]);
		default:
			return usage_bad_option(argv[optind - 1], err);
		}
	}
	if (help) {
		usage(stdout);
		return 1;
	}
	if (version) {
		printf(CLI_NAME " " TTPU_RUN_VERSION "\n");
		return 1;
	}
	if (c->json && !c->info)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "--json goes with --info (a run's response is JSON already)");
	if (c->info) {
		if (optind < argc || c->inputs || c->output || c->check || c->repeat > 1 ||
		    c->engine_given || c->passes_given)
			return ttpu_error_set(err, TTPU_USAGE_ERROR,
					      "--info takes only --device and --json (see " CLI_NAME " --help)");
		return 0;
	}
	if (argc - optind > 1)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "one PROGRAM at most, got '%s' and '%s' (see " CLI_NAME " --help)",
				      argv[optind], argv[optind + 1]);
	if (optind < argc)
		c->program = argv[optind];
	if (!c->program && c->inputs)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "--inputs needs a PROGRAM argument: a request on stdin carries its own inputs");
	if (c->compile && (!c->program || c->inputs || c->check))
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "--compile takes a PROGRAM argument and -o FILE, and neither --inputs nor --check");
	if (c->passes_given && (c->check || c->compile))
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "--passes shapes a run's response; not with --check or --compile");
	if (c->serve && (!c->program || c->inputs || c->check || c->compile || c->output ||
			 c->show))
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "--serve takes a PROGRAM argument, its inputs come on stdin; not with --inputs, --output, --check, --compile or --show");
	if (c->device && c->engine == TTPU_ENGINE_SOFTWARE)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "--device does not apply to --engine software");
	/*
	 * Naming a device asks for it: a mistyped path must fail, not fall
	 * back to the CPU. "--engine auto --device PATH" still may.
	 */
	if (c->device && !c->engine_given)
		c->engine = TTPU_ENGINE_NPUKIT;
	return 0;
}

/*
 * Load the program and its inputs, from a request or from files. Each
 * document is read in chunks while it is parsed: memory follows the
 * program, not the size of its text.
 */
static int load(struct cli *c, ttpu_program **prog, ttpu_inputs **in,
		struct ttpu_error *err)
{
	uint64_t mark = cli_now_ns();
	int ret;

	if (!c->program) {
		ret = ttpu_request_load_fd(STDIN_FILENO, "stdin", prog, in, err);
		cli_times_add(&c->times, CLI_PHASE_LOAD, &mark);
		return ret;
	}
	ret = ttpu_program_load_file(c->program, prog, err);
	cli_times_add(&c->times, CLI_PHASE_LOAD, &mark);
	if (ret || c->compile || c->serve)
		return ret;

	*in = ttpu_inputs_new(*prog);
	if (!*in)
		return ttpu_error_sys(err, ENOMEM, "allocating the inputs");
	if (!c->inputs) {
		/* --check without --inputs checks the program alone. */
		if (ttpu_program_input_count(*prog) == 0 || c->check)
			return 0;
		return ttpu_error_set(err, TTPU_INPUT_ERROR,
				      "program \"%s\" has %zu input(s) (the first is \"%s\"): give them with --inputs FILE",
				      ttpu_program_name(*prog),
				      ttpu_program_input_count(*prog),
				      ttpu_program_input_name(*prog, 0));
	}
	ret = ttpu_inputs_load_file(*in, c->inputs, err);
	cli_times_add(&c->times, CLI_PHASE_LOAD, &mark);
	return ret;
}

static int write_check(FILE *f, const ttpu_program *prog)
{
	struct json_object *o = json_object_new_object();
	int ret = -1;

	if (!o)
		return -1;
	if (json_object_object_add(o, "ok", json_object_new_boolean(1)) ||
	    json_object_object_add(o, "name",
				   json_object_new_string(ttpu_program_name(prog))) ||
	    json_object_object_add(o, "passes",
				   json_object_new_int64((int64_t)ttpu_program_pass_count(prog))) ||
	    json_object_object_add(o, "commands",
				   json_object_new_int64((int64_t)ttpu_program_command_count(prog))))
		goto out;
	if (fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_SPACED |
							    JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
		goto out;
	ret = 0;
out:
	json_object_put(o);
	return ret;
}

static int execute(struct cli *c, struct ttpu_error *err)
{
	ttpu_program *prog = NULL;
	ttpu_inputs *in = NULL;
	ttpu_engine *eng = NULL;
	ttpu_result *res = NULL;
	uint64_t mark;
	int ret;

	ret = cli_sink_open(&c->sink, c->output, err);
	if (ret)
		return ret;
	ret = load(c, &prog, &in, err);
	if (ret)
		goto out;

	mark = cli_now_ns();
	if (c->serve) {
		ret = ttpu_engine_open(c->engine, c->device, &eng, err);
		if (!ret)
			ret = cli_serve(prog, eng, c->stats, c->passes, err);
		if (ret)
			goto out;
	} else if (c->compile) {
		/* Written as it is laid out: the image is never held whole. */
		ret = ttpu_program_write_binary_file(prog, c->sink.f, err);
		if (ret) {
			c->sink.failed = true;
			goto out;
		}
	} else if (c->check) {
		if (write_check(c->sink.f, prog) < 0) {
			c->sink.failed = true;
			ret = ttpu_error_sys(err, errno ? errno : EIO,
					     "writing the response");
			goto out;
		}
	} else {
		ret = ttpu_engine_open(c->engine, c->device, &eng, err);
		cli_times_add(&c->times, CLI_PHASE_OPEN, &mark);
		if (ret)
			goto out;
		ret = c->repeat > 1 ? cli_run_repeat(prog, eng, in, c->repeat, &res, err) :
				      ttpu_run(prog, eng, in, &res, err);
		cli_times_add(&c->times, CLI_PHASE_RUN, &mark);
		if (ret)
			goto out;
		ret = ttpu_result_write_json_passes(res, c->sink.f, c->stats, c->passes, err);
		if (ret) {
			/* Part of it may be out already: add nothing there. */
			c->sink.failed = true;
			goto out;
		}
	}
	ret = cli_sink_commit(&c->sink, err);
	cli_times_add(&c->times, CLI_PHASE_OUTPUT, &mark);
	if (!ret && c->show)
		cli_report_outputs(prog, res);
	/* --serve reported each request: the session's phases would mislead. */
	if (!ret && c->stats && !c->serve)
		cli_report_stats(prog, eng, res, &c->times);
out:
	if (ret)
		cli_sink_abort(&c->sink);
	ttpu_result_free(res);
	ttpu_engine_close(eng);
	ttpu_inputs_free(in);
	ttpu_program_free(prog);
	return ret;
}

int main(int argc, char **argv)
{
	struct cli c = { .engine = TTPU_ENGINE_AUTO, .repeat = 1 };
	struct ttpu_error err;
	int ret;

	/*
	 * A reader that went away (EPIPE) or a file size limit (EFBIG) is an
	 * I/O error to report, not a reason to die half-way through OUT.
	 */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	cli_sink_setup_stdout();

	ret = parse_args(&c, argc, argv, &err);
	if (ret > 0) {
		if (fflush(stdout) == 0 && !ferror(stdout))
			return CLI_EXIT_OK;
		ttpu_error_sys(&err, errno ? errno : EIO, "writing to stdout");
		return cli_report_error(&err, false);
	}
	if (ret == 0 && c.info) {
		ret = cli_info(c.device, c.json, stdout, &err);
		if (!ret && (fflush(stdout) || ferror(stdout)))
			ret = ttpu_error_sys(&err, errno ? errno : EIO, "writing to stdout");
	} else if (ret == 0) {
		ret = execute(&c, &err);
	}
	if (ret)
		return cli_report_error(&err, cli_sink_stdout_usable(&c.sink));
	return CLI_EXIT_OK;
}
