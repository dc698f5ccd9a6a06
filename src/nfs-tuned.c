/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * nfs-tuned: the administrator's command beside the mount helper (which keeps mount(8)'s
 * interface).  Not setuid: it reads only what any user may read.
 *
 *   nfs-tuned status [-o LIST] [-n] [-r] [-J] [--prometheus FILE]
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/status.h"
#include "config-build.h"
#include "shared/log.h"

static void usage(void)
{
        printf(
            "Usage: nfs-tuned status [-o LIST] [-n] [-r | -J] [--prometheus FILE]\n"
            "       nfs-tuned -h | -V\n"
            "\n"
            "What every NFS mount of this host really got (nconnect asked against the NFS\n"
            "client's, live connections, read-ahead against the configuration), the NFS\n"
            "clients only /proc/fs/nfsfs shows, fstab entries that will fight at the next\n"
            "boot, and host files that defeat the settings.\n"
            "\n"
            "  -o, --output LIST    the mounts table's columns (see below)\n"
            "  -n, --noheadings     no header line\n"
            "  -r, --raw            raw output: no alignment\n"
            "  -J, --json           JSON: {\"mounts\":[...],\"clients\":[...],\"findings\":[...]}\n"
            "      --prometheus FILE  write node_exporter's textfile format to FILE\n"
            "                       (atomically; \"-\": standard output) and print nothing\n"
            "  -h, --help, -V, --version\n"
            "\n"
            "Exit status: 0 nothing found, 1 findings, 2 an error.  See nfs-tuned(8).\n");
        status_print_columns_help();
}

static const struct option longopts[] = {
        { "output", required_argument, NULL, 'o' },
        { "noheadings", no_argument, NULL, 'n' },
        { "raw", no_argument, NULL, 'r' },
        { "json", no_argument, NULL, 'J' },
        { "prometheus", required_argument, NULL, 'P' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { 0 },
};

/* The options up to the first argument ("+") or all of them; -1 to go on, or an exit code. */
static int read_options(int argc, char **argv, const char *optstring, struct status_opts *o)
{
        int c;

        while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
                switch (c) {
                case 'o': o->columns = optarg; break;
                case 'n': o->noheadings = true; break;
                case 'r': o->raw = true; break;
                case 'J': o->json = true; break;
                case 'P': o->prometheus = optarg; break;
                case 'h': usage(); return STATUS_EX_CLEAN;
                case 'V': printf("nfs-tuned %s\n", VERSION); return STATUS_EX_CLEAN;
                default:
                        fprintf(stderr, "Try 'nfs-tuned -h'.\n");
                        return STATUS_EX_ERROR;
                }
        }
        return -1;
}

int main(int argc, char **argv)
{
        struct status_opts o = { 0 };
        struct paths p;
        int rc;

        log_set_name("nfs-tuned");
        if ((rc = read_options(argc, argv, "+o:nrJhV", &o)) >= 0)
                return rc;
        if (optind >= argc || strcmp(argv[optind], "status") != 0) {
                if (optind >= argc)
                        log_error("no command given; the command is 'status' (nfs-tuned -h)");
                else
                        log_error("unknown command '%s'; the command is 'status' (nfs-tuned -h)",
                                  argv[optind]);
                return STATUS_EX_ERROR;
        }
        /* options may follow the command too: nfs-tuned status --json */
        optind++;
        if ((rc = read_options(argc, argv, "o:nrJhV", &o)) >= 0)
                return rc;
        if (optind < argc) {
                log_error("unexpected argument '%s'; see 'nfs-tuned -h'", argv[optind]);
                return STATUS_EX_ERROR;
        }
        if (o.json && o.raw) {
                log_error("--json and --raw exclude each other");
                return STATUS_EX_ERROR;
        }
        paths_init(&p);
        rc = cmd_status(&o, &p);
        paths_done(&p);
        return rc;
}
