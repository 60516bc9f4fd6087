//! The inputs of the harness: the annotated host loops of
//! [`super::common::pipelines`], the same loops unannotated
//! ([`super::unannotated`]), and `gpu.func` kernels ([`super::gpu`]).
//! Each prints a program whose entry is `@kernel(%A, %out, %n, %c)` and
//! whose symbols all start with `@kernel`. Any of them can also be taken
//! through the mbarrier form ([`Input::Mbarrier`]).

use apipe_passes::software_pipeline::{PipelineOptions, ScheduleOrder, SyncForm};

use super::{
    common::{
        pipelines::{self, Pipeline, Scenario},
        Rng,
    },
    gpu::{self, GpuPipeline},
    unannotated::{self, Stages},
};

/// The kinds of inputs, each drawn from its own seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// An annotated host loop.
    Host,
    /// A host loop without annotations (`num-stages`).
    HostUnannotated,
    /// A `gpu.func` kernel, annotated.
    Gpu,
    /// A `gpu.func` kernel without annotations (`num-stages`).
    GpuUnannotated,
    /// A host loop, annotated or not, pipelined with `sync=tokens` and
    /// taken to the mbarrier form (`apipe-tokens-to-mbarrier`).
    HostMbarrier,
    /// A `gpu.func` kernel, annotated or not, in the mbarrier form.
    GpuMbarrier,
}

/// A generated input.
#[derive(Clone, Debug)]
pub enum Input {
    /// A host loop, how it is scheduled, and whether with
    /// `order=copies-first` (else the CUTLASS order; scheduled loops only).
    Host(Pipeline, Stages, bool),
    /// A kernel.
    Gpu(GpuPipeline),
    /// A host loop or a kernel, pipelined with `sync=tokens` and then
    /// converted by `apipe-tokens-to-mbarrier` (docs/mbarrier.md): its
    /// mutants are those of the mbarrier form ([`super::MBARRIER_MUTATIONS`]).
    Mbarrier(Box<Input>),
}

impl Input {
    /// Draws an input of `kind`.
    pub fn generate(kind: Kind, rng: &mut Rng) -> Self {
        match kind {
            Kind::Host => Input::Host(pipelines::generate(rng), Stages::Annotated, false),
            Kind::HostUnannotated => {
                let pipeline = pipelines::generate(rng);
                let stages = Stages::draw(rng);
                Input::Host(pipeline, stages, rng.below(3) == 0)
            }
            Kind::Gpu => Input::Gpu(gpu::generate(rng, false)),
            Kind::GpuUnannotated => Input::Gpu(gpu::generate(rng, true)),
            Kind::HostMbarrier | Kind::GpuMbarrier => {
                let inner = match (kind, rng.coin()) {
                    (Kind::HostMbarrier, true) => Kind::Host,
                    (Kind::HostMbarrier, false) => Kind::HostUnannotated,
                    (_, true) => Kind::Gpu,
                    (_, false) => Kind::GpuUnannotated,
                };
                Input::Mbarrier(Box::new(Input::generate(inner, rng)))
            }
        }
    }

    /// Its kind.
    pub fn kind(&self) -> Kind {
        match self {
            Input::Host(_, Stages::Annotated, _) => Kind::Host,
            Input::Host(..) => Kind::HostUnannotated,
            Input::Gpu(g) if g.stages == Stages::Annotated => Kind::Gpu,
            Input::Gpu(_) => Kind::GpuUnannotated,
            Input::Mbarrier(inner) if inner.is_gpu() => Kind::GpuMbarrier,
            Input::Mbarrier(_) => Kind::HostMbarrier,
        }
    }

    /// Whether it launches a kernel.
    pub fn is_gpu(&self) -> bool {
        match self {
            Input::Gpu(_) => true,
            Input::Mbarrier(inner) => inner.is_gpu(),
            Input::Host(..) => false,
        }
    }

    /// Whether it is taken to the mbarrier form.
    pub fn is_mbarrier(&self) -> bool {
        matches!(self, Input::Mbarrier(_))
    }

    /// The program (module body ops).
    pub fn text(&self) -> String {
        match self {
            Input::Host(p, Stages::Annotated, _) => p.kernel(),
            Input::Host(p, stages, _) => unannotated::strip(&p.kernel(), *stages),
            Input::Gpu(g) => g.kernel(),
            Input::Mbarrier(inner) => inner.text(),
        }
    }

    /// The options of `apipe-software-pipeline` for it.
    pub fn options(&self) -> PipelineOptions {
        match self {
            Input::Host(_, stages, copies_first) => PipelineOptions {
                num_stages: stages.option(),
                order: if *copies_first {
                    ScheduleOrder::CopiesFirst
                } else {
                    ScheduleOrder::Cutlass
                },
                ..PipelineOptions::default()
            },
            Input::Gpu(g) => g.options(),
            Input::Mbarrier(inner) => PipelineOptions {
                sync: SyncForm::Tokens,
                ..inner.options()
            },
        }
    }

    /// Elements of `%A`.
    pub fn source_size(&self) -> i64 {
        match self {
            Input::Host(p, ..) => p.source_size(),
            Input::Gpu(g) => g.source_size(),
            Input::Mbarrier(inner) => inner.source_size(),
        }
    }

    /// Elements of `%out`.
    pub fn output_size(&self) -> i64 {
        match self {
            Input::Host(p, ..) => p.output_size(),
            Input::Gpu(g) => g.output_size(),
            Input::Mbarrier(inner) => inner.output_size(),
        }
    }

    /// The arguments to run it with.
    pub fn scenarios(&self) -> Vec<Scenario> {
        match self {
            Input::Host(p, ..) => p.scenarios(),
            Input::Gpu(g) => g.scenarios(),
            Input::Mbarrier(inner) => inner.scenarios(),
        }
    }
}
