/* SPDX-License-Identifier: MIT */
/*
 * direct_variants.h - the texts the tests of the direct readers vary
 *
 * A program whose one command is replaced by each variant of a table
 * (escapes, floats, negative, leading-zero and too-long numbers, nulls,
 * duplicate, unknown and missing keys, wrong types, white space, non-ASCII
 * and invalid UTF-8, pass ids reused or not run yet, ...), each marked
 * with whether the direct reader must take it; the inputs of that program;
 * and random byte mutations of a text. variants[1]'s program is the plain
 * one that the tests of lists of integers change a row of.
 */
#ifndef DIRECT_VARIANTS_H
#define DIRECT_VARIANTS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

/*
 * A program where one command, CMD, varies; REST follows it. Passes 0 and
 * 1 run around it; D is there for the variants to write.
 */
#define PROG_HEAD \
	"{'format':'ttpu','version':1,'tile':4,'name':'direct','buffers':{"		\
	"'A':{'dtype':'i8','shape':[4,8],'kind':'input'},"				\
	"'W':{'dtype':'i8','shape':[8,4],'kind':'const','data':[[1,0,0,0],[0,1,0,0],"	\
	"[0,0,1,0],[0,0,0,1],[2,0,0,0],[0,2,0,0],[0,0,2,0],[0,0,0,2]]},"		\
	"'b':{'dtype':'i32','shape':[8],'kind':'const','data':[1,-2,3,-4,5,-6,7,-8]},"		\
	"'C':{'dtype':'i32','shape':[4,4],'kind':'temp'},"				\
	"'D':{'dtype':'i32','shape':[4,8],'kind':'temp'}},"				\
	"'inputs':['A'],'outputs':['C','D'],'commands':[\n"				\
	"{'op':'alloc','buf':'C'},{'op':'alloc','buf':'D'},\n"				\
	"{'op':'pass','id':0,'a':{'buf':'A','r':0,'c':0},'b':{'buf':'W','r':0,'c':0}},\n"
#define PROG_TAIL \
	",\n{'op':'pass','id':1,'a':{'buf':'A','r':0,'c':4},'b':{'buf':'W','r':4,'c':0}},\n"	\
	"{'op':'acc','pass':1,'dst':{'buf':'C','r':0,'c':0}}]}\n"
#define INPUTS_A \
	"{'A':[[1,-2,3,-4,5,-6,7,-8],[9,10,11,12,13,14,15,16],"		\
	"[-1,-1,-1,-1,-1,-1,-1,-1],[127,-128,0,1,2,3,4,5]]}"

/* What consumes pass 0 after a variant that is not an acc of it. */
#define ACC0 ",{'op':'acc','pass':0,'dst':{'buf':'D','r':0,'c':0}}"
#define WIN(b, r, c) "{'buf':'" b "','r':" #r ",'c':" #c "}"

struct variant {
	const char *cmd;	/* single-quoted JSON */
	const char *rest;	/* after it, before pass 1 */
	bool plain;		/* the direct reader takes it */
};

static const struct variant variants[] = {
	/* acc of pass 0: plain, and every way of not being plain. */
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) "}", "", true },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 4) ",'bias':'b','relu':true}", "", true },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'b','relu':false}", "", true },
	{ "{'dst':{'c':0,'r':0,'buf':'D'},'relu':true,'pass':0,'bias':'b','op':'acc'}", "", true },
	{ "{ 'op' : 'acc' ,\n\t'pass' :0 ,\r\n'dst':{ 'buf' :'D','r': 0 ,'c':0 }\n}", "", true },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",\f'relu':true}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",\v'relu':true}", "", false },
	{ "{'op':'acc','pass':7,'dst':" WIN("D", 0, 0) "}", ACC0, true },
	{ "{'op':'acc','pass':1,'dst':" WIN("D", 0, 0) "}", ACC0, true },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) "}", ACC0, true },
	{ "{'op':'acc','pass':999999999999999999,'dst':" WIN("D", 0, 0) "}", ACC0, true },
	{ "{'op':'acc','pass':1000000000000000000,'dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'acc','pass':9223372036854775807,'dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'acc','pass':9223372036854775808,'dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'acc','pass':99999999999999999999,'dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'acc','pass':'0','dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':0.0,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':1.0,'dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'acc','pass':1e2,'dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'acc','pass':0E0,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':-0,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':-1,'dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'acc','pass':00,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':01,'dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'acc','pass':null,'dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'acc','pass':0,'dst':null}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':null}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'relu':null}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'relu':1}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'relu':'true'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'relu':tru}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'relu':truex}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'relu':True}", "", false },
	{ "{'op':'acc','pass':0,'pass':0,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':7,'pass':0,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','op':'acc','pass':0,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','r':0,'r':0,'c':0}}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','buf':'C','r':0,'c':0}}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'x':1}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'id':0}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'r':0}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','r':0,'c':0,'d':1}}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','r':0,'c':0,'':1}}", "", false },
	{ "{'op':'acc','pass':0}", "", false },
	{ "{'op':'acc','dst':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'pass':0,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','r':0}}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'r':0,'c':0}}", "", false },
	{ "{'op':'acc','pass':0,'dst':{}}", "", false },
	{ "{'op':'acc','pass':0,'dst':'D'}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':5,'r':0,'c':0}}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','r':'0','c':0}}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','r':true,'c':0}}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','r':{'x':1},'c':0}}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','r':[0],'c':0}}", "", false },
	{ "{'op':'acc','pass':0,'dst':{'buf':'D','r':0,'c':0,}}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':''}", "", true },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':5}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'a/b c~!#'}", "", true },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'\\u0062'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'a\\/b'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'b\\u0000'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'\\ud800'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'\\n'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("\\u0044", 0, 0) "}", "", false },
	{ "{'op':'a\\u0063c','pass':0,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','p\\u0061ss':0,'dst':" WIN("D", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'\xc3\xa9'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'\xff'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'\xc3'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'\xed\xa0\x80'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'b\tb'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 0) ",'bias':'b\x7f'}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D\xc3\xa9", 0, 0) "}", "", false },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 999999999999999999, 0) "}", "", true },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 4294967296, 0) "}", "", true },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 0, 4294967295) "}", "", true },
	{ "{'op':'acc','pass':0,'dst':" WIN("D", 1, 0) "}", "", true },
	{ "{'op':'acc','pass':0,'dst':" WIN("Z", 0, 0) "}", "", true },
	/* Not a command object at all. */
	{ "{}", ACC0, false },
	{ "[]", ACC0, false },
	{ "5", ACC0, false },
	{ "'acc'", ACC0, false },
	{ "null", ACC0, false },
	{ "{'op':'mul','pass':0}", ACC0, false },
	{ "{'op':5}", ACC0, false },
	{ "{'op':''}", ACC0, false },
	{ "{'op':null}", ACC0, false },
	/* Passes. */
	{ "{'op':'pass','id':2,'a':" WIN("A", 0, 0) ",'b':" WIN("W", 0, 0) "}",
	  ACC0 ",{'op':'acc','pass':2,'dst':" WIN("D", 0, 4) "}", true },
	{ "{'b':" WIN("W", 0, 0) ",'a':" WIN("A", 0, 0) ",'id':2,'op':'pass'}",
	  ACC0 ",{'op':'acc','pass':2,'dst':" WIN("D", 0, 4) "}", true },
	{ "{'op':'pass','id':0,'a':" WIN("A", 0, 0) ",'b':" WIN("W", 0, 0) "}", ACC0, true },
	{ "{'op':'pass','id':1,'a':" WIN("A", 0, 0) ",'b':" WIN("W", 0, 0) "}", ACC0, true },
	{ "{'op':'pass','id':-1,'a':" WIN("A", 0, 0) ",'b':" WIN("W", 0, 0) "}", ACC0, false },
	{ "{'op':'pass','id':1.5,'a':" WIN("A", 0, 0) ",'b':" WIN("W", 0, 0) "}", ACC0, false },
	{ "{'op':'pass','id':123456789012345678,'a':" WIN("A", 0, 0) ",'b':" WIN("W", 0, 0) "}",
	  ACC0 ",{'op':'acc','pass':123456789012345678,'dst':" WIN("D", 0, 4) "}", true },
	{ "{'op':'pass','id':2,'a':'A','b':" WIN("W", 0, 0) "}", ACC0, false },
	{ "{'op':'pass','id':2,'a':" WIN("A", 0, 0) "}", ACC0, false },
	{ "{'op':'pass','id':2,'a':" WIN("A", 0, 0) ",'b':" WIN("W", 0, 0) ",'dst':'D'}",
	  ACC0, false },
	{ "{'op':'pass','id':2,'a':" WIN("Q", 0, 0) ",'b':" WIN("", 0, 0) "}", ACC0, true },
	{ "{'op':'pass','id':2,'a':" WIN("A", 2, 1) ",'b':" WIN("W", 0, 0) "}",
	  ACC0 ",{'op':'acc','pass':2,'dst':" WIN("D", 0, 4) "}", true },
	/* The other ops. */
	{ "{'op':'alloc','buf':'D'}", ACC0, true },
	{ "{'op':'alloc','buf':''}", ACC0, true },
	{ "{'op':'alloc','buf':" WIN("D", 0, 0) "}", ACC0, false },
	{ "{'op':'alloc','buf':'D','relu':true}", ACC0, false },
	{ "{'op':'host_relu','dst':'D','src':'D'}", ACC0, true },
	{ "{'op':'host_relu','dst':'D','src':'D','relu':true}", ACC0, false },
	{ "{'op':'host_relu','dst':'D'}", ACC0, false },
	{ "{'op':'host_add','dst':'D','a':'D','b':'D'}", ACC0, true },
	{ "{'op':'host_add','dst':'D','a':'D','b':'C'}", ACC0, true },
	{ "{'op':'host_add','dst':'D','a':" WIN("D", 0, 0) ",'b':'D'}", ACC0, false },
	{ "{'op':'host_add','dst':" WIN("D", 0, 0) ",'a':'D','b':'D'}", ACC0, false },
	{ "{'op':'epilogue','dst':" WIN("D", 0, 0) ",'bias':'b','relu':true}", ACC0, true },
	{ "{'op':'epilogue','dst':" WIN("D", 0, 0) "}", ACC0, true },
	{ "{'op':'epilogue','bias':'b'}", ACC0, false },
	{ "{'op':'epilogue','dst':" WIN("D", 0, 0) ",'pass':0}", ACC0, false },
	{ "{'op':'epilogue','dst':'D'}", ACC0, false },
};

/* The program with variant @v, double-quoted; malloc'd. */
static inline char *variant_program(const struct variant *v)
{
	size_t n = strlen(PROG_HEAD) + strlen(v->cmd) + strlen(v->rest) + strlen(PROG_TAIL) + 1;
	char *sq = malloc(n), *dq;

	if (!sq)
		abort();
	snprintf(sq, n, "%s%s%s%s", PROG_HEAD, v->cmd, v->rest, PROG_TAIL);
	dq = rt_dq(sq);
	free(sq);
	return dq;
}

/* Bytes a mutation writes: JSON's own, and some it has no place for. */
static const char mutation_bytes[] = "{}[],:\"\\ \t\n\r0123456789.eE+-tfnulbrcdapsiox/'\x7f\x80\xc3\xff";

/* A fixed sequence, the same on every run: a failure can be replayed. */
static inline unsigned int next_random(unsigned int *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

/*
 * @len bytes of @text into @m (room for 3 more) with 1 to 3 random bytes
 * from @from on replaced, inserted or deleted; the new length.
 */
static inline size_t mutate(char *m, const char *text, size_t len, size_t from,
			    unsigned int *state)
{
	size_t n = len, at;
	unsigned int r;

	memcpy(m, text, len);
	for (int k = 1 + (int)(next_random(state) % 3); k > 0 && n > from; k--) {
		at = from + next_random(state) % (n - from);
		r = next_random(state);
		switch (r % 3) {
		case 0:
			m[at] = mutation_bytes[(r >> 2) % (sizeof(mutation_bytes) - 1)];
			break;
		case 1:
			memmove(m + at + 1, m + at, n - at);
			m[at] = mutation_bytes[(r >> 2) % (sizeof(mutation_bytes) - 1)];
			n++;
			break;
		default:
			memmove(m + at, m + at + 1, n - at - 1);
			n--;
			break;
		}
	}
	return n;
}

#endif /* DIRECT_VARIANTS_H */
