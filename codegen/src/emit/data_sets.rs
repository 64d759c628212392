//! `data_sets.rs`: one struct per typed DataSet of the spec, over the runtime's `DataSet`, and
//! one struct per table for its rows.
//!
//! A typed DataSet's struct holds a `DataSet` made of its shape (its tables first, then
//! their columns first, in its order, of their types), so that the rows' structs read cells
//! by position; everything else of the set (rows' states, original values, errors, tables and
//! columns the spec does not know) stays in it, written back as it was read.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{doc, ident};
use crate::model::{ColumnModel, DataSetModel, Model, TableModel};
use crate::spec::SoapType;

pub(super) fn emit(model: &Model) -> TokenStream {
    let module_doc = super::inner_doc(
        "The typed DataSets of the spec (.NET's classes made by `xsd /dataset`): each a struct \
         over an `rmm_runtime::DataSet` of its tables and columns, with a struct for each \
         table's rows.",
    );
    let sets = model.data_sets.iter().map(data_set);
    quote! {
        #module_doc

        use crate::runtime::dataset::{
            cell, Cell, CellValue, ColumnType, DataSetError, HolderView, TypedColumn, TypedSchema,
            TypedTable,
        };
        use crate::runtime::raw_xml::XmlElement;
        use crate::runtime::{DataHolder, DataSet};

        #(#sets)*
    }
}

/// The `ColumnType` variant of a column of spec type `ty`.
fn column_type(ty: SoapType) -> TokenStream {
    let variant = match ty {
        SoapType::String => "String",
        SoapType::Int => "Int",
        SoapType::Long => "Long",
        SoapType::Short => "Short",
        SoapType::UnsignedByte => "UnsignedByte",
        SoapType::Byte => "Byte",
        SoapType::UnsignedShort => "UnsignedShort",
        SoapType::UnsignedInt => "UnsignedInt",
        SoapType::UnsignedLong => "UnsignedLong",
        SoapType::Decimal => "Decimal",
        SoapType::Double => "Double",
        SoapType::Float => "Float",
        SoapType::Boolean => "Boolean",
        SoapType::DateTime => "DateTime",
        SoapType::Guid => "Guid",
        SoapType::Base64Binary => "Base64Binary",
        other => unreachable!("a validated column type, not {other:?}"),
    };
    let variant = ident(variant);
    quote!(ColumnType::#variant)
}

/// The Rust type a cell of a column of spec type `ty` holds.
fn cell_type(ty: SoapType) -> TokenStream {
    match ty {
        SoapType::String => quote!(String),
        SoapType::Base64Binary => quote!(Vec<u8>),
        SoapType::Guid => quote!(crate::Uuid),
        SoapType::DateTime => quote!(crate::DateTime),
        SoapType::Decimal => quote!(crate::Decimal),
        SoapType::Int => quote!(i32),
        SoapType::Long => quote!(i64),
        SoapType::Short => quote!(i16),
        SoapType::UnsignedByte => quote!(u8),
        SoapType::Byte => quote!(i8),
        SoapType::UnsignedShort => quote!(u16),
        SoapType::UnsignedInt => quote!(u32),
        SoapType::UnsignedLong => quote!(u64),
        SoapType::Double => quote!(f64),
        SoapType::Float => quote!(f32),
        SoapType::Boolean => quote!(bool),
        other => unreachable!("a validated column type, not {other:?}"),
    }
}

/// The .NET type a column's doc names.
fn dotnet_type(ty: SoapType) -> &'static str {
    match ty {
        SoapType::String => "string",
        SoapType::Base64Binary => "byte[]",
        SoapType::Guid => "Guid",
        SoapType::DateTime => "DateTime",
        SoapType::Decimal => "decimal",
        SoapType::Int => "int",
        SoapType::Long => "long",
        SoapType::Short => "short",
        SoapType::UnsignedByte => "byte",
        SoapType::Byte => "sbyte",
        SoapType::UnsignedShort => "ushort",
        SoapType::UnsignedInt => "uint",
        SoapType::UnsignedLong => "ulong",
        SoapType::Double => "double",
        SoapType::Float => "float",
        SoapType::Boolean => "bool",
        other => unreachable!("a validated column type, not {other:?}"),
    }
}

fn data_set(set: &DataSetModel) -> TokenStream {
    let rust = ident(&set.rust);
    let name = &set.name;
    let namespace = &set.namespace;
    let mut text = format!(
        "The typed DataSet `{name}` (.NET's class made by `xsd /dataset`): a DataSet of the \
         namespace `{namespace}`"
    );
    match &set.locale {
        None => text.push_str(", of the current culture"),
        Some(culture) if culture.is_empty() => text.push_str(", of the invariant culture"),
        Some(culture) => text.push_str(&format!(", of the culture `{culture}`")),
    }
    let tables: Vec<String> = set
        .tables
        .iter()
        .map(|t| format!("`{}` ([`{}`])", t.name, t.row))
        .collect();
    text.push_str(&format!(", whose tables are {}.", tables.join(", ")));
    if let Some(d) = &set.doc {
        text = format!("{d}\n\n{text}");
    }
    text.push_str(
        "\n\nOn the wire it is its schema and a diffgram, as the host writes it. It holds a \
         `DataSet` whose tables and columns start with these, in order: rows' states, \
         original values and errors, and any table or column the spec does not declare (after \
         its own), are kept in it ([`Self::data_set`]) and written back as they were read.",
    );
    let set_doc = doc(&text);
    let locale = match &set.locale {
        None => quote!(None),
        Some(culture) => quote!(Some(#culture)),
    };
    let table_schemas = set.tables.iter().map(|t| {
        let table_name = &t.name;
        let columns = t.columns.iter().map(|c| {
            let column_name = &c.name;
            let ty = column_type(c.ty);
            let allow_null = c.allow_null;
            quote!(TypedColumn { name: #column_name, ty: #ty, allow_null: #allow_null })
        });
        quote!(TypedTable { name: #table_name, columns: &[#(#columns),*] })
    });
    let methods = set
        .tables
        .iter()
        .enumerate()
        .map(|(i, t)| table_methods(i, t));
    let rows = set.tables.iter().map(|t| row_struct(set, t));
    // A DataSet's cells may be doubles: not `Eq`.
    let derive = quote!(#[derive(Debug, Clone, PartialEq)]);
    quote! {
        #set_doc
        #derive
        pub struct #rust(DataSet);

        impl #rust {
            /// Its name, namespace, locale, tables and columns.
            pub const SCHEMA: TypedSchema = TypedSchema {
                name: #name,
                namespace: #namespace,
                locale: #locale,
                tables: &[#(#table_schemas),*],
            };

            /// The set with its tables and no rows (.NET's `new`).
            pub fn new() -> Self {
                Self(Self::SCHEMA.empty())
            }

            /// The `DataSet` it holds: rows' states, original values and errors, and what the
            /// spec does not declare.
            pub fn data_set(&self) -> &DataSet {
                &self.0
            }

            /// The `DataSet` it holds, to change as a `DataSet`; [`TryFrom`] makes it typed
            /// again.
            pub fn into_data_set(self) -> DataSet {
                self.0
            }

            #(#methods)*
        }

        impl Default for #rust {
            fn default() -> Self {
                Self::new()
            }
        }

        impl TryFrom<DataSet> for #rust {
            type Error = DataSetError;

            /// The typed set of a `DataSet` that has its tables and columns, of their types,
            /// put in its order as .NET's typed set puts them (`TypedSchema::conform`);
            /// refused otherwise.
            fn try_from(set: DataSet) -> Result<Self, DataSetError> {
                Ok(Self(Self::SCHEMA.conform(set)?))
            }
        }

        impl DataHolder for #rust {
            const ROOT: &'static str = #name;
            /// `false`: a typed set's generated `ReadXmlSerializable` overrides the
            /// DataSet's, which alone takes `xsi:nil` for an empty set; what the element
            /// holds is read.
            const NIL_IS_EMPTY: bool = false;

            fn empty() -> Self {
                Self::new()
            }

            fn read_holder(holder: &XmlElement) -> Result<Self, DataSetError> {
                Self::try_from(DataSet::read_holder(holder)?)
            }

            fn holder_view(&self) -> Option<HolderView<'_>> {
                self.0.holder_view()
            }
        }

        #(#rows)*
    }
}

/// The set's methods for table `index`: its rows, and adding one.
fn table_methods(index: usize, table: &TableModel) -> TokenStream {
    let getter = ident(&table.getter);
    let adder = ident(&table.adder);
    let row = ident(&table.row);
    let index = Literal::usize_unsuffixed(index);
    let getter_doc = doc(&format!(
        "The rows of table `{}` that are not deleted, their current values.",
        table.name
    ));
    let adder_doc = doc(&format!(
        "Adds a row to table `{}`, its state added (.NET's `Add{}Row`).",
        table.name,
        crate::model::variant_name(&table.name).unwrap_or_default()
    ));
    quote! {
        #getter_doc
        pub fn #getter(&self) -> Vec<#row> {
            Self::SCHEMA
                .rows(&self.0, #index)
                .map(#row::from_cells)
                .collect()
        }

        #adder_doc
        pub fn #adder(&mut self, row: #row) {
            Self::SCHEMA.add_row(&mut self.0, #index, row.into_cells());
        }
    }
}

/// The struct of a table's rows.
fn row_struct(set: &DataSetModel, table: &TableModel) -> TokenStream {
    let row = ident(&table.row);
    let row_doc = doc(&format!(
        "A row of table `{}` of the typed DataSet [`{}`]: its cells, one field per column.",
        table.name, set.rust
    ));
    let floats = table
        .columns
        .iter()
        .any(|c| matches!(c.ty, SoapType::Float | SoapType::Double));
    let derive = if floats {
        quote!(#[derive(Debug, Clone, PartialEq, Default)])
    } else {
        quote!(#[derive(Debug, Clone, PartialEq, Eq, Default)])
    };
    let fields = table.columns.iter().map(|c| {
        let field = ident(&c.field);
        let ty = cell_type(c.ty);
        let ty = if c.allow_null {
            quote!(Option<#ty>)
        } else {
            ty
        };
        let field_doc = doc(&column_doc(c));
        quote! {
            #field_doc
            pub #field: #ty,
        }
    });
    let reads = table.columns.iter().enumerate().map(|(i, c)| {
        let field = ident(&c.field);
        let i = Literal::usize_unsuffixed(i);
        if c.allow_null {
            quote!(#field: cell(cells, #i),)
        } else {
            // A conformed set has no null there.
            quote!(#field: cell(cells, #i).unwrap_or_default(),)
        }
    });
    let writes = table.columns.iter().map(|c| {
        let field = ident(&c.field);
        if c.allow_null {
            quote!(self.#field.map(CellValue::into_cell),)
        } else {
            quote!(Some(self.#field.into_cell()),)
        }
    });
    quote! {
        #row_doc
        #derive
        pub struct #row {
            #(#fields)*
        }

        impl #row {
            /// The row of a conformed set's cells, in the columns' order.
            fn from_cells(cells: &[Option<Cell>]) -> Self {
                Self {
                    #(#reads)*
                }
            }

            /// Its cells, in the columns' order.
            fn into_cells(self) -> Vec<Option<Cell>> {
                vec![#(#writes)*]
            }
        }
    }
}

/// A column field's doc: its name, schema type and .NET type, and whether it allows nulls.
fn column_doc(c: &ColumnModel) -> String {
    let xsd = match c.ty {
        SoapType::Guid => "string",
        other => other.name(),
    };
    let null = if c.allow_null {
        "allows nulls (`None`; `minOccurs=\"0\"`)"
    } else {
        "does not allow nulls"
    };
    format!(
        "Column `{}`: `xs:{xsd}`, .NET `{}`; it {null}.",
        c.name,
        dotnet_type(c.ty)
    )
}
