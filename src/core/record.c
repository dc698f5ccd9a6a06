/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/record.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "core/keyfile.h"
#include "core/optmap.h"
#include "core/request.h"
#include "core/xprtsec.h"
#include "shared/macro.h"

void mount_record_done(struct mount_record *r)
{
        free(r->spec);
        free(r->target);
        free(r->server);
        *r = (struct mount_record){ 0 };
}

static bool escape_keeps(char c, bool first)
{
        if (first && c == '.')
                return false;
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == ':' || c == '_' || c == '.';
}

int mount_record_name(const char *target, char **ret)
{
        size_t len = strlen(target);
        char *out = malloc(len * 4 + 2), *t = out;

        if (!out)
                return -ENOMEM;
        while (*target == '/')
                target++;
        for (const char *s = target; *s; s++) {
                if (*s == '/') {
                        /* "a//b" and a trailing '/' name the same directory */
                        if (s[1] && s[1] != '/' && t > out)
                                *t++ = '-';
                        continue;
                }
                if (escape_keeps(*s, t == out))
                        *t++ = *s;
                else
                        t += sprintf(t, "\\x%02x", (unsigned char)*s);
        }
        if (t == out)
                *t++ = '-';
        *t = '\0';
        if (t - out > NAME_MAX) {
                free(out);
                return -ENAMETOOLONG;
        }
        *ret = out;
        return 0;
}

static const char *const origin_names[] = {
        [ORIGIN_UNKNOWN] = "unknown",
        [ORIGIN_NONE] = "none",
        [ORIGIN_CMDLINE] = "cmdline",
        [ORIGIN_CONFIG] = "config",
};

const char *setting_origin_to_string(enum setting_origin o)
{
        return origin_names[o];
}

static enum setting_origin origin_parse(const char *s)
{
        for (size_t i = 0; i < ELEMENTSOF(origin_names); i++)
                if (streq(s, origin_names[i]))
                        return (enum setting_origin)i;
        return ORIGIN_UNKNOWN;
}

void mount_record_format_dev(dev_t dev, long long verified_ms,
                             char buf[static MOUNT_RECORD_DEV_STRLEN])
{
        int n = snprintf(buf, MOUNT_RECORD_DEV_STRLEN, "dev=%u:%u\n", major(dev), minor(dev));
        if (verified_ms > 0)
                snprintf(buf + n, MOUNT_RECORD_DEV_STRLEN - (size_t)n, "verified_ms=%lld\n",
                         verified_ms);
}

void mount_record_format_rtt(unsigned long rtt_us, char buf[static MOUNT_RECORD_LINE_STRLEN])
{
        snprintf(buf, MOUNT_RECORD_LINE_STRLEN, "read_ahead_rtt_us=%lu\n", rtt_us);
}

int mount_record_format(const struct mount_record *r, char **ret)
{
        char ra[READ_AHEAD_STRLEN], bw[MOUNT_RECORD_LINE_STRLEN] = "",
                                    dev[MOUNT_RECORD_DEV_STRLEN] = "",
                                    rtt[MOUNT_RECORD_LINE_STRLEN] = "";

        if (strchr(r->spec, '\n') || strchr(r->target, '\n') || strchr(r->server, '\n'))
                return -EINVAL;
        /* auto's bandwidth, so that the udev rule and status size the window as the mount did */
        if (r->read_ahead.kind == READ_AHEAD_AUTO)
                snprintf(bw, sizeof(bw), "read_ahead_bandwidth=%lu\n", r->read_ahead.bw);
        if (r->dev)
                mount_record_format_dev(r->dev, r->verified_ms, dev);
        if (r->rtt_us)
                mount_record_format_rtt(r->rtt_us, rtt);
        if (r->boot_id[0] && !boot_id_valid(r->boot_id))
                return -EINVAL;
        if (asprintf(ret,
                     MOUNT_RECORD_HEADER "\nspec=%s\ntarget=%s\nserver=%s\nnconnect=%u\n"
                                         "read_ahead_kb=%s\n%sbg=%s\nnconnect_requested=%u\n"
                                         "nconnect_from=%s\nread_ahead_from=%s\nxprtsec=%s\n"
                                         "%s%s%s%s%s",
                     r->spec, r->target, r->server, r->nconnect,
                     read_ahead_to_string(&r->read_ahead, ra), bw, r->bg ? "yes" : "no",
                     r->nconnect_requested, setting_origin_to_string(r->nconnect_from),
                     setting_origin_to_string(r->read_ahead_from),
                     r->xprtsec[0] ? r->xprtsec : "none", r->boot_id[0] ? "boot_id=" : "",
                     r->boot_id, r->boot_id[0] ? "\n" : "", dev, rtt) < 0)
                return -ENOMEM;
        return 0;
}

/* "0:53" */
static void dev_parse(const char *s, dev_t *ret)
{
        unsigned maj, min;
        char end;

        if (sscanf(s, "%u:%u%c", &maj, &min, &end) == 2 && min < (1U << 20) && maj < (1U << 12))
                *ret = makedev(maj, min);
}

/* "81234": milliseconds, 64 bits wide on every architecture (unsigned long is not) */
static void ms_parse(const char *s, long long *ret)
{
        char *end;

        if (*s < '0' || *s > '9')
                return;
        errno = 0;
        long long v = strtoll(s, &end, 10);
        if (!*end && errno == 0 && v > 0)
                *ret = v;
}

/* One line "key=value": the value of a string key replaces the field. */
static int record_set(void *ctx, const char *key, const char *value)
{
        struct mount_record *r = ctx;
        char **field = streq(key, "spec")     ? &r->spec
                       : streq(key, "target") ? &r->target
                       : streq(key, "server") ? &r->server
                                              : NULL;
        unsigned long u;

        if (field) {
                free(*field);
                return (*field = strdup(value)) ? 0 : -ENOMEM;
        }
        if (streq(key, "nconnect") && parse_uint(value, 0, NCONNECT_MAX, &u) == 0)
                r->nconnect = (unsigned)u;
        else if (streq(key, "nconnect_requested") && parse_uint(value, 0, NCONNECT_MAX, &u) == 0)
                r->nconnect_requested = (unsigned)u;
        else if (streq(key, "nconnect_from"))
                r->nconnect_from = origin_parse(value);
        else if (streq(key, "read_ahead_from"))
                r->read_ahead_from = origin_parse(value);
        else if (streq(key, "dev"))
                dev_parse(value, &r->dev);
        else if (streq(key, "verified_ms"))
                ms_parse(value, &r->verified_ms);
        else if (streq(key, "boot_id") && boot_id_valid(value))
                memcpy(r->boot_id, value, BOOT_ID_STRLEN);
        else if (streq(key, "read_ahead_kb")) {
                unsigned long bw = r->read_ahead.bw;
                if (read_ahead_parse(value, &r->read_ahead) == 0 && bw &&
                    r->read_ahead.kind == READ_AHEAD_AUTO)
                        r->read_ahead.bw = bw;
        } else if (streq(key, "read_ahead_bandwidth") &&
                   parse_uint(value, 1, READ_AHEAD_BW_MAX, &u) == 0)
                r->read_ahead.bw = u;
        else if (streq(key, "read_ahead_rtt_us") && parse_uint(value, 1, 60000000, &u) == 0)
                r->rtt_us = u;
        else if (streq(key, "bg"))
                r->bg = streq(value, "yes");
        else if (streq(key, "xprtsec") && xprtsec_word(value))
                snprintf(r->xprtsec, sizeof(r->xprtsec), "%s", value);
        return 0;
}

int mount_record_parse(const char *text, struct mount_record *ret)
{
        struct mount_record r = { .read_ahead = { READ_AHEAD_KEEP, 0 } };
        int rc = keyfile_parse(text, MOUNT_RECORD_HEADER, 0, record_set, &r);

        if (rc == 0 && (!r.spec || !r.target))
                rc = -EINVAL;
        if (rc == 0 && !r.server && !(r.server = strdup("")))
                rc = -ENOMEM;
        if (rc < 0) {
                mount_record_done(&r);
                return rc;
        }
        *ret = r;
        return 0;
}

bool mount_record_matches(const struct mount_record *r, const struct nfs_mount *m,
                          const struct mount_when *w)
{
        /* a record without dev (a bg mount not verified yet) matches by source and target */
        if (!(r && m && streq(r->target, m->target) && streq(r->spec, m->source) &&
              (!r->dev || r->dev == m->dev)))
                return false;
        /* written in another boot: a run directory kept on disk (a container's /run) */
        if (w && w->boot_id[0] && r->boot_id[0] && !streq(w->boot_id, r->boot_id))
                return false;
        /* the helper saw its mount after the kernel made its superblock (or one the mount
         * shares): a record seen mounted before this superblock existed is an earlier mount's
         * that had the same device number (the kernel gives the lowest free one again) */
        return !(w && w->known && r->verified_ms && r->verified_ms < w->lo_ms);
}
