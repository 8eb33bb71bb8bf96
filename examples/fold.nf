#!/usr/bin/env nextflow
// Nussinov folding of an RNA FASTA in batches: the file is cut into batches
// of params.batch_size sequences (in file order), each one WARPDP_NUSSINOV
// task on the task's GPU, and the results are concatenated in input order
// (the header line of TSV output once, at the top): the file one gpu-nussinov
// run over the whole FASTA writes.
//
//   nextflow run examples/fold.nf -profile test,docker
//   nextflow run examples/fold.nf -profile singularity,gpu --rnas rnas.fa.gz --batch_size 50000
//
// Parameters (examples/nextflow.config): rnas, batch_size, outdir.
// Results: <outdir>/fold/<rnas>.<format>.gz (tsv by default).

include { WARPDP_NUSSINOV } from '../modules/warpdp/warpdp/nussinov/main'

// The batches' results, in batch order, as one file; a TSV header line
// (#id...) is kept from the first batch only.
process CONCAT_BATCHES {
    tag "${meta.id}"
    label 'process_single'

    container "${ workflow.containerEngine in ['singularity', 'apptainer'] && !task.ext.singularity_pull_docker_container ?
        'https://github.com/warpdp/warpdp/releases/download/v0.1.0/warpdp-0.1.0.sif' :
        'quay.io/warpdp/warpdp:0.1.0' }"

    input:
    tuple val(meta), path(batches), val(suffix)

    output:
    tuple val(meta), path("${meta.id}.${suffix}.gz"), emit: structures

    script:
    """
    first=1
    for batch in ${batches}; do
        if [ "\$first" = 1 ]; then
            zcat "\$batch"
            first=0
        else
            zcat "\$batch" | sed '1{/^#id\\t/d}'
        fi
    done | gzip --no-name > ${meta.id}.${suffix}.gz
    """

    stub:
    """
    touch ${meta.id}.${suffix}
    gzip --no-name ${meta.id}.${suffix}
    """
}

workflow {
    if (!params.rnas) {
        error("fold.nf needs --rnas RNAS.fa (or -profile test for the bundled data)")
    }
    def name = file(params.rnas).simpleName

    // Batches are named batch.<n>.fa.gz, n from 1 in file order: n keeps the
    // order through tasks that finish in any order.
    def batches = channel.fromPath(params.rnas, checkIfExists: true)
        .splitFasta(by: params.batch_size, file: 'batch.fa', compress: true)
        .map { batch ->
            def n = batch.name.tokenize('.')[1].toInteger()
            [[id: "${name}.batch${n}", batch: n], batch]
        }

    WARPDP_NUSSINOV(batches)

    // WARPDP_NUSSINOV names a result <id>.<format>.gz
    def gathered = WARPDP_NUSSINOV.out.structures
        .toSortedList { a, b -> a[0].batch <=> b[0].batch }
        .map { list -> [[id: name], list.collect { entry -> entry[1] }, list[0][1].name.tokenize('.')[-2]] }

    CONCAT_BATCHES(gathered)

    channel.topic('versions')
        .unique()
        .map { proc, tool, version -> "${proc}\t${tool}\t${version}" }
        .collectFile(name: 'versions.tsv', storeDir: "${params.outdir}/pipeline_info", sort: true, newLine: true)
}
